import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The image builds from what its stages copy: every input of `npm run build` reaches the build
 * stage (and no `.dockerignore` line drops it), every path the running service needs reaches
 * the runtime stage, and the Node the image, `engines` and CI use is one major version.
 * `scripts/release-check.sh` (CI) then builds and boots exactly that.
 */
const ROOT = join(__dirname, '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const dockerfile = read('Dockerfile');
const pkg = JSON.parse(read('package.json')) as {
  engines: { node: string };
  bin: Record<string, string>;
  scripts: Record<string, string>;
};

/** The sources of the COPY lines of one stage (`AS <name>`), `--from` ones as `/app/…`. */
function copies(stage: string): string[] {
  const body = dockerfile.split(/^FROM /m).find((s) => new RegExp(` AS ${stage}\\b`).test(s));
  if (!body) {
    throw new Error(`no stage ${stage}`);
  }
  return [...body.matchAll(/^COPY (?:--from=\S+ )?(.+) \S+$/gm)].flatMap((m) => m[1].split(/\s+/));
}

/** Top-level names `.dockerignore` keeps out of the build context. */
const ignored = read('.dockerignore')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#') && !l.startsWith('!'));

describe('the release image', () => {
  it('builds on the Node major that engines and CI name', () => {
    const image = /^ARG NODE_IMAGE=node:(\d+)-/m.exec(dockerfile)?.[1];
    const engines = /(\d+)/.exec(pkg.engines.node)?.[1];
    const ci = /NODE_RUNTIME_VERSION:-(\d+)\./.exec(read('scripts/node-runtime.sh'))?.[1];
    expect({ image, ci }).toEqual({ image: engines, ci: engines });
  });

  it('gives the build stage every input of npm run build, none of them dockerignored', () => {
    const build = copies('build');
    const tsconfigBuild = JSON.parse(read('tsconfig.build.json')) as {
      extends: string;
      include: string[];
    };
    const nestCli = JSON.parse(read('nest-cli.json')) as {
      compilerOptions: { tsConfigPath: string };
    };
    const needed = [
      'package.json',
      'package-lock.json',
      'nest-cli.json',
      nestCli.compilerOptions.tsConfigPath,
      tsconfigBuild.extends.replace(/^\.\//, ''),
      ...tsconfigBuild.include,
      ...Object.values(pkg.bin).map((p) => p.split('/')[0]),
    ];
    expect(pkg.scripts.build).toContain('nest build');
    expect(needed.filter((p) => !build.includes(p))).toEqual([]);
    expect(needed.filter((p) => ignored.includes(p))).toEqual([]);
    expect(needed.filter((p) => !existsSync(join(ROOT, p)))).toEqual([]);
  });

  it('gives the runtime stage the code, its dependencies, the manifest and the CLI', () => {
    const runtime = copies('runtime').map((p) => p.replace(/^\/app\//, ''));
    const needed = [
      'package.json',
      'node_modules',
      'dist',
      ...Object.values(pkg.bin).map((p) => p.split('/')[0]),
    ];
    expect(needed.filter((p) => !runtime.includes(p))).toEqual([]);
    // The image runs what `npm start` runs.
    const cmd = JSON.parse(/^CMD (.+)$/m.exec(dockerfile)?.[1] ?? '[]') as string[];
    expect(`${cmd.join(' ')}`).toBe(pkg.scripts.start);
  });
});
