import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DCLinter } from 'dclint';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { ConfigMap, Namespace, Service } from 'kubernetes-models/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { parse, parseAllDocuments } from 'yaml';
import { services } from '@pp/config';
import { repoRoot, units } from '../src/launcher/units.ts';

type Obj = Record<string, any>;
const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8');
const unitNames = units.map((u) => u.name);
const entryOf = (name: string) =>
  units
    .find((u) => u.name === name)!
    .entry.split('\\')
    .join('/');

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
      expect(svc[name]!.command).toEqual(['node', entryOf(name)]);
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
      expect(container!.command).toEqual(['node', entryOf(name)]);
      // A service is ready when its database and broker answer; the gateway when it serves (one unit
      // down must not take the whole API out: its paths answer 503).
      const readiness = name === 'gateway' ? '/healthz' : '/readyz';
      expect(container!.readinessProbe.httpGet).toEqual({ path: readiness, port: 'http' });
      expect(container!.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
      expect(container!.ports).toEqual([{ name: 'http', containerPort: 8080 }]);
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

    const configVolume = (nats.spec.template.spec.volumes as Obj[]).find((v) => v.configMap)!;
    const conf = byKind('ConfigMap', configVolume.configMap.name)!.data['nats.conf'] as string;
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
