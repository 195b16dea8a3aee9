import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { repoRoot } from '../src/launcher/units.ts';

type Obj = Record<string, any>;
const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8');

/** Every .ts file of the code (tests aside) under a folder. */
function sources(dir: string): string[] {
  return readdirSync(join(repoRoot, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => read(join(dir, f)));
}

/** The Prometheus metrics the platform's code registers, with a histogram's series. */
function registeredMetrics(): Set<string> {
  const code = ['libs', 'services', 'gateway/src'].flatMap(sources).join('\n');
  const names = [...code.matchAll(/\b(?:counter|gauge|histogram)\(\s*'([a-z_]+)'/g)].map((m) => m[1]!);
  names.push('http_request_duration_seconds');
  return new Set(names.flatMap((n) => [n, `${n}_bucket`, `${n}_count`, `${n}_sum`]));
}

const FUNCTIONS = new Set(['histogram_quantile', 'label_values']);
/** The metric names a PromQL expression reads (the labels it names have no underscore). */
const metricsOf = (expr: string) =>
  [...expr.matchAll(/\b[a-z]+(?:_[a-z0-9]+)+\b/g)].map((m) => m[0]).filter((n) => !FUNCTIONS.has(n));

function expectBalanced(expr: string) {
  const pairs: Record<string, string> = { ')': '(', ']': '[', '}': '{' };
  const open: string[] = [];
  for (const c of expr.replace(/"[^"]*"/g, '""')) {
    if ('([{'.includes(c)) open.push(c);
    else if (pairs[c]) expect(open.pop()).toBe(pairs[c]);
  }
  expect(open).toEqual([]);
}

const metrics = registeredMetrics();

describe('deploy/observability', () => {
  it('the Grafana dashboard is JSON with the panels an operator needs, on metrics the units export', () => {
    const dashboard = JSON.parse(read('deploy/observability/dashboard.json')) as Obj;
    const panels = (dashboard.panels as Obj[]).filter((p) => p.type !== 'row');
    expect(panels.map((p) => p.title)).toEqual(
      expect.arrayContaining([
        'Request rate',
        'Error rate (5xx)',
        'Request duration p99',
        'Consumer lag',
        'Outbox depth',
        'Outbox age',
        'Webhook delivery success',
        'Webhook delivery latency',
        'Live streams per replica',
      ]),
    );
    expect(new Set(panels.map((p) => p.id)).size).toBe(panels.length);
    for (const panel of panels) {
      expect(panel.targets.length).toBeGreaterThan(0);
      for (const { expr } of panel.targets as Obj[]) {
        expectBalanced(expr);
        const named = metricsOf(expr);
        expect(named.length).toBeGreaterThan(0);
        for (const name of named)
          expect({ panel: panel.title, metric: name, known: metrics.has(name) }).toEqual({
            panel: panel.title,
            metric: name,
            known: true,
          });
      }
    }
  });

  it('the alert rules parse, each with an expression on exported metrics, a severity and a summary', () => {
    const rules = (parse(read('deploy/observability/alerts.yaml')) as Obj).groups.flatMap(
      (g: Obj) => g.rules,
    ) as Obj[];
    expect(rules.map((r) => r.alert)).toEqual(
      expect.arrayContaining([
        'HighErrorRate',
        'SlowRequests',
        'ConsumerLagging',
        'OutboxNotPublishing',
        'DeadLettersPresent',
        'WebhookDeliveriesFailing',
      ]),
    );
    for (const rule of rules) {
      expect(['page', 'warn']).toContain(rule.labels.severity);
      expect(rule.annotations.summary).toEqual(expect.any(String));
      if (rule.for !== undefined) expect(rule.for).toMatch(/^\d+[smh]$/);
      expectBalanced(rule.expr);
      for (const name of metricsOf(rule.expr))
        expect({ alert: rule.alert, metric: name, known: metrics.has(name) }).toEqual({
          alert: rule.alert,
          metric: name,
          known: true,
        });
    }
  });

  it('every unit in Kubernetes is scraped on the port that serves its /metrics', () => {
    const files = readdirSync(join(repoRoot, 'deploy/k8s')).filter((f) => f.endsWith('.yaml'));
    const deployments = files
      .flatMap((f) => parseAllDocuments(read(join('deploy/k8s', f))).map((d) => d.toJSON() as Obj))
      .filter((d) => d?.kind === 'Deployment');
    expect(deployments.length).toBeGreaterThanOrEqual(8);
    for (const d of deployments) {
      const pod = d.spec.template;
      // The gateway serves its metrics on a port of their own, off the public API; a unit on its HTTP port.
      const ports = pod.spec.containers[0].ports as Obj[];
      const port = (ports.find((p) => p.name === 'metrics') ?? ports.find((p) => p.name === 'http'))!
        .containerPort;
      expect({ name: d.metadata.name, ...pod.metadata.annotations }).toMatchObject({
        name: d.metadata.name,
        'prometheus.io/scrape': 'true',
        'prometheus.io/port': String(port),
        'prometheus.io/path': '/metrics',
      });
    }
  });
});
