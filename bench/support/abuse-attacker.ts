/**
 * One attack of bench:abuse in its own process, so the attacker's own work (building 32 MB
 * bodies, a hundred sockets) never stalls the live client and the event-loop probe that
 * measure the server. Prints what the attacker got back, and the cores it used, as JSON on stdout.
 *
 *   node -r @swc-node/register bench/support/abuse-attacker.ts <attack> <url> <seconds> <seed>
 */
import { type AttackName, ATTACKS } from './abuse-attacks';

async function main() {
  const [name, url, seconds, seed] = process.argv.slice(2);
  const attack = ATTACKS[name as AttackName];
  if (!attack) {
    throw new Error(`unknown attack ${name}; one of ${Object.keys(ATTACKS).join(', ')}`);
  }
  const end = performance.now() + Number(seconds) * 1000;
  const cpu = process.cpuUsage();
  const statuses = await attack(url, () => performance.now() >= end, Number(seed));
  // The attacker shares the box's cores with the server: its own CPU is part of the picture.
  const used = process.cpuUsage(cpu);
  const cores = (used.user + used.system) / 1000 / (Number(seconds) * 1000);
  process.stdout.write(JSON.stringify({ statuses, cores: Number(cores.toFixed(3)) }));
}

main().catch((error: unknown) => {
  process.stderr.write(`${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
