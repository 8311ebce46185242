import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { bootTestApp, type TestApp } from './support/app';

/**
 * The Grafana dashboard and the Prometheus alert rules in deploy/ name only metrics the
 * service exports: every name they use is checked against a running app's `GET /metrics`.
 */

const DEPLOY = join(__dirname, '..', 'deploy');
const DASHBOARD = join(DEPLOY, 'grafana-dashboard.json');
const RULES = join(DEPLOY, 'prometheus-rules.yaml');

interface Dashboard {
  panels: Array<{ id: number; type: string; title: string; targets?: Array<{ expr: string }> }>;
}

/**
 * The metric names a scrape may hold, from its `# TYPE` lines: every family is declared even
 * before its first sample, and histograms add `_bucket`, `_sum` and `_count` series.
 */
function exportedNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name);
    if (type === 'histogram' || type === 'summary') {
      ['_bucket', '_sum', '_count'].forEach((suffix) => names.add(`${name}${suffix}`));
    }
  }
  return names;
}

/**
 * Metric names in PromQL: ours by their prefix, and any identifier that a selector (`{`) or
 * a range (`[`) follows, so a name without the prefix is caught too.
 */
function metricNames(promql: string): string[] {
  const prefixed = promql.match(/\bcontext_bridge_[a-z0-9_]+/g) ?? [];
  const selected = [...promql.matchAll(/\b([a-zA-Z_:][a-zA-Z0-9_:]*)\s*[{[]/g)].map((m) => m[1]);
  return [...new Set([...prefixed, ...selected])];
}

/** The `expr:` of each rule in a rule file, inline or as a `|` block. */
function ruleExpressions(yaml: string): string[] {
  const lines = yaml.split('\n');
  const exprs: string[] = [];
  lines.forEach((line, i) => {
    const match = /^(\s*)expr:\s*(.*)$/.exec(line);
    if (!match) {
      return;
    }
    if (match[2] !== '|') {
      exprs.push(match[2]);
      return;
    }
    const body: string[] = [];
    for (const next of lines.slice(i + 1)) {
      if (next.trim() !== '' && next.search(/\S/) <= match[1].length) {
        break;
      }
      body.push(next);
    }
    exprs.push(body.join('\n'));
  });
  return exprs;
}

describe('deploy/ dashboard and alert rules', () => {
  let t: TestApp;
  let exported: Set<string>;

  beforeAll(async () => {
    t = await bootTestApp();
    const scrape = await fetch(`${t.url}/metrics`);
    expect(scrape.status).toBe(200);
    exported = exportedNames(await scrape.text());
  });

  afterAll(async () => {
    await t?.close();
  });

  it('the dashboard is valid JSON whose every query names exported metrics', () => {
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;
    const queries = dashboard.panels.flatMap((p) => (p.targets ?? []).map((q) => q.expr));
    expect(queries.length).toBeGreaterThan(10);
    expect(new Set(dashboard.panels.map((p) => p.id)).size).toBe(dashboard.panels.length);
    const names = queries.flatMap(metricNames);
    expect(names.length).toBeGreaterThan(0);
    expect([...new Set(names)].filter((name) => !exported.has(name))).toEqual([]);
  });

  it('the dashboard covers what the runbook watches', () => {
    const text = readFileSync(DASHBOARD, 'utf8');
    for (const metric of [
      'context_bridge_http_request_duration_seconds_bucket', // latency per route
      'context_bridge_context_stage_duration_seconds_bucket', // latency per stage
      'context_bridge_context_partial_total', // partial rate
      'context_bridge_context_stage_misses_total', // sheds (stage="admission")
      'context_bridge_nodejs_eventloop_lag_p99_seconds',
      'context_bridge_webhook_backlog_events',
      'context_bridge_webhook_events_total{outcome=\\"dead\\"}', // dead letters
      'context_bridge_ingest_chunks_total',
    ]) {
      expect(text).toContain(metric);
    }
  });

  it('every alert rule names exported metrics, and the spec’s 5% partial rate pages', () => {
    const yaml = readFileSync(RULES, 'utf8');
    const exprs = ruleExpressions(yaml);
    expect(exprs.length).toBe((yaml.match(/^\s*- alert: /gm) ?? []).length);
    // Annotations may query metrics too (`query "…"`): our prefix anywhere in the file.
    const names = [
      ...exprs.flatMap(metricNames),
      ...(yaml.match(/\bcontext_bridge_[a-z0-9_]+/g) ?? []),
    ];
    expect([...new Set(names)].filter((name) => !exported.has(name))).toEqual([]);

    const partial = exprs.find((e) => e.includes('context_bridge_context_partial_total'));
    expect(partial).toMatch(/> 0\.05/);
    expect(yaml).toMatch(/alert: ContextBridgePartialRateHigh[\s\S]*?severity: page/);
    expect(exprs.some((e) => /route="\/context"[\s\S]*> 0\.8/.test(e))).toBe(true);
    expect(exprs.some((e) => e.includes('outcome="dead"'))).toBe(true);
  });
});
