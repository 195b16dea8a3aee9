import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DCLinter } from 'dclint';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { ConfigMap, Namespace, Service } from 'kubernetes-models/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { parse, parseAllDocuments } from 'yaml';
import { services, serviceUrlVar } from '@pp/config';
import { brokerUserNames, natsPasswordVariable } from '@pp/events';
import { readinessPathOf } from '../src/launcher/front.ts';
import { natsAuthorization } from '../src/launcher/nats-auth.ts';
import { repoRoot, units } from '../src/launcher/units.ts';

type Obj = Record<string, any>;
const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8');
const unitNames = units.map((u) => u.name);
const entryOf = (name: string) =>
  units
    .find((u) => u.name === name)!
    .entry.split('\\')
    .join('/');
/** How `npm start` runs a unit: its Node settings, then its entry file; compose and Kubernetes the same. */
const commandOf = (name: string) => [
  'node',
  ...(units.find((u) => u.name === name)!.nodeOptions ?? []),
  entryOf(name),
];

describe('Dockerfile', () => {
  const dockerfile = read('deploy/docker/Dockerfile');

  it('builds in stages on Node 24 slim, installs with npm ci, runs as a non-root user with a health check', () => {
    const froms = dockerfile.match(/^FROM .+$/gm) ?? [];
    expect(froms.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/^ARG NODE_IMAGE=node:24[\w.-]*-slim$/m);
    expect(dockerfile).toMatch(/npm ci\b/);
    const users = dockerfile.match(/^USER (\S+)$/gm) ?? [];
    expect(users.at(-1)).toBe('USER node');
    expect(dockerfile).toMatch(/^HEALTHCHECK .*\n?.*\/healthz/m);
  });

  /** The workspaces the units run: the gateway, every service and the @pp/ packages they depend on (not dev). */
  const imageWorkspaces = () => {
    const globs = (JSON.parse(read('package.json')) as { workspaces: string[] }).workspaces;
    const all = globs
      .flatMap((g) =>
        g.endsWith('/*')
          ? readdirSync(join(repoRoot, g.slice(0, -2))).map((d) => `${g.slice(0, -2)}/${d}`)
          : [g],
      )
      .filter((w) => existsSync(join(repoRoot, w, 'package.json')));
    const manifest = (w: string) =>
      JSON.parse(read(`${w}/package.json`)) as { name: string; dependencies?: Record<string, string> };
    const byName = new Map(all.map((w) => [manifest(w).name, w]));
    const needed = new Set(all.filter((w) => w === 'gateway' || w.startsWith('services/')));
    for (const w of needed)
      for (const dep of Object.keys(manifest(w).dependencies ?? {}))
        if (byName.has(dep)) needed.add(byName.get(dep)!);
    return { all, needed };
  };

  it('copies the package.json of every workspace the units run before npm ci, and of no other', () => {
    const { all, needed } = imageWorkspaces();
    const stage = /^FROM \S+ AS deps$([\s\S]*?)^FROM /m.exec(dockerfile)![1]!;
    for (const ws of all) {
      if (needed.has(ws)) expect(stage).toContain(`COPY ${ws}/package.json ${ws}/`);
      else expect(stage).not.toContain(`COPY ${ws}/package.json`);
    }
    // The test helpers (testcontainers, a Docker client) and the launcher are no unit's dependency.
    expect(needed).not.toContain('libs/testing');
    expect(needed).not.toContain('deploy');
  });

  it("installs production dependencies only, and leaves the test helpers' sources out of the build context", () => {
    const stage = /^FROM \S+ AS deps$([\s\S]*?)^FROM /m.exec(dockerfile)![1]!;
    const commands = stage.replace(/^#.*$/gm, '');
    const installs = [...commands.matchAll(/npm (?:ci|install)\b[^|\n]*/g)].map((m) => m[0]);
    expect(installs.length).toBeGreaterThan(0);
    for (const install of installs) expect(install).toContain('--omit=dev');
    expect(read('.dockerignore').split('\n')).toContain('libs/testing');
  });

  it('gives the web stage the tsconfig that web/tsconfig.json extends (Vite reads it to build)', () => {
    const stage = /^FROM deps AS web$([\s\S]*?)^FROM /m.exec(dockerfile)![1]!;
    const sources = [...stage.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((m) => m[1]!.split(' '));
    const { extends: base } = JSON.parse(read('web/tsconfig.json')) as { extends: string };
    const needed = join('web', base).split('\\').join('/');
    expect(sources).toContain(needed);
  });
});

/** The units whose settings name `target`'s URL (e.g. SESSIONS_URL): those that call it. */
async function callersOf(target: string): Promise<string[]> {
  const callers: string[] = [];
  for (const unit of units) {
    const url = pathToFileURL(join(repoRoot, dirname(unit.entry), 'config.ts')).href;
    // A schema with a transform after it is a pipe: its settings are those of what goes in.
    type Settings = { shape?: Record<string, unknown>; in?: { shape: Record<string, unknown> } };
    const { configSchema } = (await import(url)) as { configSchema: Settings };
    const shape = configSchema.shape ?? configSchema.in!.shape;
    if (unit.name !== target && serviceUrlVar(target as never) in shape) callers.push(unit.name);
  }
  return callers.sort();
}

describe('docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as Obj;
  const svc = compose.services as Record<string, Obj>;

  it('passes dclint: valid against the compose schema and its rules (ordering rules aside)', () => {
    const linter = new DCLinter({
      rules: {
        'service-keys-order': 0,
        'services-alphabetical-order': 0,
        'service-dependencies-alphabetical-order': 0,
        'top-level-properties-order': 0,
      },
      quiet: false,
      debug: false,
      exclude: [],
    });
    const [result] = linter.lintFiles([join(repoRoot, 'docker-compose.yml')], false);
    const messages = result!.messages as Array<{ rule: string; message: string }>;
    expect(messages.map((m) => `${m.rule}: ${m.message}`)).toEqual([]);
  });

  it('runs every unit from the one image, with a health check on /readyz', () => {
    for (const name of unitNames) {
      expect(svc[name]).toBeDefined();
      expect(svc[name]!.build).toEqual({ context: '.', dockerfile: 'deploy/docker/Dockerfile' });
      expect(svc[name]!.command).toEqual(commandOf(name));
      expect(svc[name]!.healthcheck.test.join(' ')).toContain('/readyz');
    }
    expect(existsSync(join(repoRoot, 'deploy/docker/Dockerfile'))).toBe(true);
  });

  it("gives each service its own database and every unit NATS, the internal key and the others' URLs", () => {
    for (const s of services) {
      if (s.database)
        expect(svc[s.name]!.environment.DATABASE_URL).toMatch(new RegExp(`@postgres:5432/${s.database}$`));
      else expect(svc[s.name]!.environment.DATABASE_URL).toBeUndefined();
    }
    expect(svc.gateway!.environment.DATABASE_URL).toBeUndefined();
    for (const name of unitNames) {
      const env = svc[name]!.environment;
      expect(env.NATS_URL).toBe('nats://nats-1:4222,nats://nats-2:4222,nats://nats-3:4222');
      expect(env.EVENTS_REPLICAS).toBe('3');
      expect(env.INTERNAL_SIGNING_KEY).toBeTruthy();
      for (const s of services) expect(env[`${s.name.toUpperCase()}_URL`]).toBe(`http://${s.name}:8080`);
    }
    expect(svc.identity!.environment.TOKEN_SIGNING_KEY).toBeTruthy();
    expect(svc.integrations!.environment.CREDENTIALS_ENCRYPTION_KEY).toBeTruthy();
    expect(svc.gateway!.environment.REDIS_URL).toBe('redis://redis:6379');
  });

  it('starts a unit only once what it needs is healthy', () => {
    for (const s of services.filter((s) => s.database)) {
      expect(svc[s.name]!.depends_on).toEqual({
        postgres: { condition: 'service_healthy' },
        'nats-1': { condition: 'service_healthy' },
        'nats-2': { condition: 'service_healthy' },
        'nats-3': { condition: 'service_healthy' },
      });
    }
    // A unit that owns no data waits for the units it calls.
    for (const s of services.filter((s) => !s.database))
      expect(Object.keys(svc[s.name]!.depends_on).every((dep) => unitNames.includes(dep as never))).toBe(
        true,
      );
    for (const dep of [...services.map((s) => s.name), 'redis']) {
      expect(svc.gateway!.depends_on[dep]).toEqual({ condition: 'service_healthy' });
    }
    for (const infra of ['postgres', 'nats-1', 'nats-2', 'nats-3', 'redis'])
      expect(svc[infra]!.healthcheck.test).toBeDefined();
    expect(svc.gateway!.ports).toEqual(['127.0.0.1:${PORT:-8080}:8080']);
  });

  it('publishes only the gateway: nothing on the network reaches a unit, PostgreSQL, NATS or Redis around it', () => {
    const published = Object.entries(svc)
      .filter(([, s]) => s.ports !== undefined || s.network_mode === 'host')
      .map(([name]) => name);
    expect(published).toEqual(['gateway']);
    expect(svc.gateway!.ports).toEqual(['127.0.0.1:${PORT:-8080}:8080']);
  });

  it('has no default for a key or password: compose refuses to start until each is set', () => {
    const secretName = /KEY|PASSWORD|SECRET/;
    const found: string[] = [];
    for (const [name, service] of Object.entries(svc)) {
      for (const [variable, value] of Object.entries((service.environment ?? {}) as Obj)) {
        const text = String(value ?? '');
        for (const ref of text.matchAll(/\$\{(\w+)([^}]*)\}/g)) {
          if (!secretName.test(ref[1]!)) continue;
          found.push(ref[1]!);
          // `${X:?message}`: required; `${X:-default}` or `${X-default}` would start with a known value.
          expect([name, variable, ref[2]!.startsWith(':?')]).toEqual([name, variable, true]);
        }
        // A key written out in the file is a known key.
        if (secretName.test(variable) && !variable.endsWith('_URL') && value !== null)
          expect([name, variable, /^\$\{\w+:\?[^}]*\}$/.test(text)]).toEqual([name, variable, true]);
      }
    }
    for (const required of [
      'INTERNAL_SIGNING_KEY',
      'TOKEN_SIGNING_KEY',
      'CREDENTIALS_ENCRYPTION_KEY',
      'POSTGRES_PASSWORD',
    ])
      expect(found).toContain(required);
  });

  it("creates every service's database when PostgreSQL starts on an empty volume", () => {
    const mount = (svc.postgres!.volumes as string[]).find((v) =>
      v.includes('/docker-entrypoint-initdb.d/'),
    )!;
    const sql = read(mount.split(':')[0]!.replace(/^\.\//, ''));
    for (const s of services.filter((s) => s.database))
      expect(sql).toMatch(new RegExp(`CREATE DATABASE ${s.database};`));
  });

  it('runs a cluster of three NATS servers from one config: JetStream syncing every write, routes to all three', () => {
    const servers = ['nats-1', 'nats-2', 'nats-3'];
    const volumes = new Set<string>();
    for (const name of servers) {
      const mounts = svc[name]!.volumes as string[];
      const [file, target] = mounts.find((v) => v.endsWith(':ro'))!.split(':');
      expect(file).toBe('./deploy/docker/nats.conf');
      expect(svc[name]!.command).toEqual(['-c', target]);
      expect(svc[name]!.environment.NATS_SERVER_NAME).toBe(name);
      volumes.add(mounts.find((v) => v.endsWith(':/data'))!);
    }
    expect(volumes.size).toBe(3); // a store of its own each
    expect(svc.nats).toBeUndefined();
    const conf = read('deploy/docker/nats.conf');
    expect(conf).toMatch(/^server_name: \$NATS_SERVER_NAME$/m);
    expect(conf).toMatch(/jetstream\s*\{[^}]*sync_interval:\s*always/);
    const routes = /cluster\s*\{[\s\S]*routes:\s*\[([^\]]*)\]/.exec(conf)![1]!;
    expect(routes.trim().split(/\s+/)).toEqual(servers.map((s) => `nats://${s}:6222`));
  });

  it('runs every NATS server with a user per unit, from the configuration the permission map renders', () => {
    const required = (user: (typeof brokerUserNames)[number]) =>
      new RegExp(`^\\$\\{${natsPasswordVariable(user)}:\\?`);
    for (const server of ['nats-1', 'nats-2', 'nats-3']) {
      const mounts = svc[server]!.volumes as string[];
      const file = (target: string) => mounts.find((v) => v.split(':')[1] === target)!.split(':')[0]!;
      expect(read(file('/etc/nats/nats.conf'))).toMatch(/^include \.\/nats-auth\.conf$/m);
      expect(read(file('/etc/nats/nats-auth.conf'))).toBe(natsAuthorization());
      for (const user of brokerUserNames)
        expect(svc[server]!.environment[natsPasswordVariable(user)]).toMatch(required(user));
    }
    for (const user of brokerUserNames) {
      expect(svc[user]!.environment.NATS_USER).toBe(user);
      expect(svc[user]!.environment.NATS_PASSWORD).toMatch(required(user));
    }
  });
});

describe('Kubernetes manifests', () => {
  const dir = join(repoRoot, 'deploy/k8s');
  const files = readdirSync(dir).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
  const docs = files.flatMap((f) =>
    parseAllDocuments(readFileSync(join(dir, f), 'utf8')).map((d) => d.toJS() as Obj),
  );
  const byKind = (kind: string, name: string) =>
    docs.find((d) => d.kind === kind && d.metadata.name === name);
  // Each model's constructor wants its own object type; the parsed YAML is checked by validate() instead.
  const models: Record<string, new (o: never) => { validate(): void }> = {
    Deployment,
    StatefulSet,
    Service,
    HorizontalPodAutoscaler,
    PodDisruptionBudget,
    ConfigMap,
    Namespace,
    NetworkPolicy,
  };

  it('holds only objects that validate against the Kubernetes schemas', () => {
    expect(docs.length).toBeGreaterThan(units.length * 3);
    for (const doc of docs) {
      const Model = models[doc.kind as string];
      expect(Model).toBeDefined();
      expect(() => new Model!(doc as never).validate()).not.toThrow();
    }
  });

  it('lists every manifest in the kustomization', () => {
    const kustomization = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as Obj;
    expect([...kustomization.resources].sort()).toEqual([...files].sort());
  });

  it.each(unitNames)(
    '%s has a Deployment with probes, resources and config, a Service and an HPA',
    (name) => {
      const deployment = byKind('Deployment', name)!;
      const pod = deployment.spec.template.spec;
      const [container] = pod.containers as Obj[];
      expect(container!.command).toEqual(commandOf(name));
      // As the launcher's fronts ask: a service is ready when its database and broker answer; the
      // gateway when it serves (one unit down must not take the whole API out: its paths answer 503).
      expect(container!.readinessProbe.httpGet).toEqual({ path: readinessPathOf(name), port: 'http' });
      expect(container!.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
      // The gateway's metrics have a port of their own (its public API has no /metrics).
      expect(container!.ports).toEqual([
        { name: 'http', containerPort: 8080 },
        ...(name === 'gateway' ? [{ name: 'metrics', containerPort: 9464 }] : []),
      ]);
      expect(container!.resources.requests).toEqual(
        expect.objectContaining({ cpu: expect.any(String), memory: expect.any(String) }),
      );
      expect(container!.resources.limits).toEqual(expect.objectContaining({ memory: expect.any(String) }));
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      expect(container!.envFrom).toEqual([{ configMapRef: { name: 'planning-poker-config' } }]);
      const env = Object.fromEntries((container!.env as Obj[]).map((e) => [e.name, e]));
      expect(env.INTERNAL_SIGNING_KEY.valueFrom.secretKeyRef.name).toBe('planning-poker-secrets');
      expect(Boolean(env.DATABASE_URL)).toBe(Boolean(services.find((s) => s.name === name)?.database));

      const service = byKind('Service', name)!;
      expect(service.spec.selector).toEqual(deployment.spec.selector.matchLabels);
      expect(deployment.spec.template.metadata.labels).toEqual(
        expect.objectContaining(service.spec.selector),
      );
      expect(service.spec.ports[0].targetPort).toBe('http');

      const hpa = byKind('HorizontalPodAutoscaler', name)!;
      expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name });
      expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);
      // The autoscaler owns the count: a Deployment naming one too would be set back to it by every
      // `kubectl apply`, scaling a busy unit down to it until the autoscaler acts again.
      expect(deployment.spec.replicas).toBeUndefined();
    },
  );

  it("has the gateway's metrics scraped on their own port, the one the gateway is told to serve them on", () => {
    const deployment = byKind('Deployment', 'gateway')!;
    const [container] = deployment.spec.template.spec.containers as Obj[];
    const env = Object.fromEntries((container!.env as Obj[]).map((e) => [e.name, e.value]));
    expect(deployment.spec.template.metadata.annotations).toEqual({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': env.METRICS_PORT,
      'prometheus.io/path': '/metrics',
    });
    expect(env.METRICS_PORT).toBe('9464');
    // Not exposed by the Service: only the scraper reaches the pods' metrics port.
    expect(byKind('Service', 'gateway')!.spec.ports.map((p: Obj) => p.targetPort)).toEqual(['http']);
  });

  it.each(unitNames.filter((n) => n !== 'gateway'))(
    '%s has a NetworkPolicy letting in only the gateway, its callers and the monitoring namespace',
    async (name) => {
      const policy = byKind('NetworkPolicy', name)!;
      expect(policy.spec.podSelector.matchLabels).toEqual(
        byKind('Deployment', name)!.spec.selector.matchLabels,
      );
      expect(policy.spec.policyTypes).toEqual(['Ingress']);
      const [rule, ...others] = policy.spec.ingress as Obj[];
      expect(others).toEqual([]);
      expect(rule!.ports).toEqual([{ port: 'http' }]);
      const pods = (rule!.from as Obj[]).filter((f) => f.podSelector);
      const namespaces = (rule!.from as Obj[]).filter((f) => f.namespaceSelector);
      expect(pods).toHaveLength(1);
      const [match] = pods[0]!.podSelector.matchExpressions as Obj[];
      expect(match!.key).toBe('app.kubernetes.io/name');
      expect(match!.operator).toBe('In');
      // The units that call it are those whose settings name its URL (libs/config's <UNIT>_URL).
      expect([...match!.values].sort()).toEqual(await callersOf(name));
      expect(match!.values).toContain('gateway');
      expect(namespaces).toEqual([
        { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } },
      ]);
    },
  );

  it('lets only the units that use the broker reach NATS clients’ port, and only NATS its routes', () => {
    const nats = byKind('StatefulSet', 'nats')!;
    const policy = byKind('NetworkPolicy', 'nats')!;
    expect(policy.spec.podSelector.matchLabels).toEqual(nats.spec.selector.matchLabels);
    const rules = policy.spec.ingress as Obj[];
    const ruleFor = (port: string) => rules.filter((r) => (r.ports as Obj[]).some((p) => p.port === port));
    const [clients, ...otherClients] = ruleFor('client');
    expect(otherClients).toEqual([]);
    const [match] = clients!.from[0].podSelector.matchExpressions as Obj[];
    expect([...match!.values].sort()).toEqual([...brokerUserNames].sort());
    expect(clients!.from).toHaveLength(1);
    expect(ruleFor('cluster')).toEqual([
      {
        from: [{ podSelector: { matchLabels: nats.spec.selector.matchLabels } }],
        ports: [{ port: 'cluster' }],
      },
    ]);
    const [server] = nats.spec.template.spec.containers as Obj[];
    const ports = (server!.ports as Obj[]).map((p) => p.name).sort();
    expect([...new Set(rules.flatMap((r) => (r.ports as Obj[]).map((p) => p.port)))].sort()).toEqual(ports);
  });

  it('lets any client reach the gateway on its HTTP port, and only the monitoring namespace its metrics', () => {
    const policy = byKind('NetworkPolicy', 'gateway')!;
    expect(policy.spec.podSelector.matchLabels).toEqual(
      byKind('Deployment', 'gateway')!.spec.selector.matchLabels,
    );
    expect(policy.spec.ingress).toEqual([
      { ports: [{ port: 'http' }] },
      {
        from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }],
        ports: [{ port: 'metrics' }],
      },
    ]);
  });

  it('gives NATS the users the permission map renders, and each unit its own user and password', () => {
    expect(byKind('ConfigMap', 'nats-auth')!.data['nats-auth.conf']).toBe(natsAuthorization());
    // The servers read it beside their own config, which includes it, with every password from the Secret.
    const pod = byKind('StatefulSet', 'nats')!.spec.template.spec;
    const [server] = pod.containers as Obj[];
    const mount = (server!.volumeMounts as Obj[]).find((m) => m.mountPath === '/etc/nats')!;
    const volume = (pod.volumes as Obj[]).find((v) => v.name === mount.name)!;
    expect((volume.projected.sources as Obj[]).map((s) => s.configMap.name).sort()).toEqual([
      'nats-auth',
      'nats-config',
    ]);
    expect(byKind('ConfigMap', 'nats-config')!.data['nats.conf']).toMatch(/^include \.\/nats-auth\.conf$/m);
    const serverEnv = Object.fromEntries((server!.env as Obj[]).map((e) => [e.name, e]));
    for (const user of brokerUserNames)
      expect(serverEnv[natsPasswordVariable(user)].valueFrom.secretKeyRef).toEqual({
        name: 'planning-poker-secrets',
        key: natsPasswordVariable(user),
      });
    for (const user of brokerUserNames) {
      const [container] = byKind('Deployment', user)!.spec.template.spec.containers as Obj[];
      const env = Object.fromEntries((container!.env as Obj[]).map((e) => [e.name, e]));
      expect(env.NATS_USER.value).toBe(user);
      expect(env.NATS_PASSWORD.valueFrom.secretKeyRef).toEqual({
        name: 'planning-poker-secrets',
        key: natsPasswordVariable(user),
      });
    }
  });

  it('points every unit at the other units through the ConfigMap', () => {
    const config = byKind('ConfigMap', 'planning-poker-config')!;
    for (const s of services)
      expect(config.data[`${s.name.toUpperCase()}_URL`]).toBe(`http://${s.name}:8080`);
    expect(config.data.NATS_URL).toMatch(/^nats:\/\//);
    // The cluster the manifests expect keeps each event on three servers.
    expect(config.data.EVENTS_REPLICAS).toBe('3');
  });

  it('runs at least two replicas of every Deployment, through its autoscaler or its own count, each with a disruption budget', () => {
    const deployments = docs.filter((d) => d.kind === 'Deployment');
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual([...unitNames].sort());
    for (const deployment of deployments) {
      const name = deployment.metadata.name as string;
      const hpa = docs.find(
        (d) => d.kind === 'HorizontalPodAutoscaler' && d.spec.scaleTargetRef.name === name,
      );
      if (hpa) {
        expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
        expect(deployment.spec.replicas).toBeUndefined();
      } else expect(deployment.spec.replicas).toBeGreaterThanOrEqual(2);
      const labels = deployment.spec.template.metadata.labels as Record<string, string>;
      const budgets = docs.filter(
        (d) =>
          d.kind === 'PodDisruptionBudget' &&
          Object.entries(d.spec.selector.matchLabels as Record<string, string>).every(
            ([k, v]) => labels[k] === v,
          ),
      );
      expect(budgets).toHaveLength(1);
      // One pod may go at a time, never the last.
      expect(budgets[0]!.spec.minAvailable ?? 0).toBeGreaterThanOrEqual(1);
    }
  });

  it('runs NATS as a StatefulSet of three JetStream servers with a volume each, clustered through a headless Service', () => {
    const nats = byKind('StatefulSet', 'nats')!;
    expect(nats.spec.replicas).toBe(3);
    expect(nats.spec.podManagementPolicy).toBe('Parallel');
    const headless = byKind('Service', nats.spec.serviceName)!;
    expect(headless.spec.clusterIP).toBe('None');
    expect(headless.spec.selector).toEqual(nats.spec.selector.matchLabels);
    expect(byKind('Service', 'nats')!.spec.selector).toEqual(nats.spec.selector.matchLabels);
    const [claim] = nats.spec.volumeClaimTemplates as Obj[];
    const [container] = nats.spec.template.spec.containers as Obj[];
    expect(container!.volumeMounts).toContainEqual({ name: claim!.metadata.name, mountPath: '/data' });
    expect(nats.spec.template.spec.securityContext.runAsNonRoot).toBe(true);

    const conf = byKind('ConfigMap', 'nats-config')!.data['nats.conf'] as string;
    expect(container!.args).toEqual(['-c', '/etc/nats/nats.conf']);
    expect(conf).toMatch(/jetstream\s*\{[^}]*store_dir:\s*\/data\/jetstream[^}]*sync_interval:\s*always/);
    const routes = /cluster\s*\{[\s\S]*routes:\s*\[([^\]]*)\]/.exec(conf)![1]!;
    expect(routes.trim().split(/\s+/)).toEqual(
      [0, 1, 2].map((i) => `nats://nats-${i}.${nats.spec.serviceName}:6222`),
    );
    // JetStream takes writes while a majority is up: a voluntary disruption may take one server only.
    const budget = byKind('PodDisruptionBudget', 'nats')!;
    expect(budget.spec.minAvailable).toBe(2);
    expect(byKind('ConfigMap', 'planning-poker-config')!.data.NATS_URL).toBe('nats://nats:4222');
  });
});
