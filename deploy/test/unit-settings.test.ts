import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parse, parseAllDocuments } from 'yaml';
import { repoRoot, units } from '../src/launcher/units.ts';

type Env = Record<string, string>;
type Obj = Record<string, any>;
const read = (path: string) => readFileSync(join(repoRoot, path), 'utf8');

/** The unit's own reading of its settings (its config.ts), which throws naming a bad or missing one. */
async function readConfigOf(name: string): Promise<(env: Env) => { PORT: number }> {
  const entry = units.find((u) => u.name === name)!.entry;
  const url = pathToFileURL(join(repoRoot, dirname(entry), 'config.ts')).href;
  return ((await import(url)) as { readConfig: (env: Env) => { PORT: number } }).readConfig;
}

/** The runtime stage's ENV lines of the image (PORT among them). */
function imageEnv(): Env {
  const instructions = read('deploy/docker/Dockerfile').replace(/\\\n/g, ' ');
  const runtime = instructions.slice(instructions.lastIndexOf('\nFROM '));
  const pairs = [...runtime.matchAll(/^ENV (.+)$/gm)].flatMap((m) => m[1]!.trim().split(/\s+/));
  return Object.fromEntries(pairs.map((p) => p.split('=') as [string, string]));
}

/**
 * A compose environment as `docker compose up` hands it over with only the required variables set in
 * .env (`${X:?message}`, given a random-looking stand-in): `${X:-default}` is the default, `${X}`
 * empty, and a key without a value is left out.
 */
function composeEnv(environment: Record<string, string | null>): Env {
  const env: Env = {};
  for (const [key, value] of Object.entries(environment)) {
    if (value === null) continue;
    env[key] = String(value)
      .replace(/\$\{\w+:\?[^}]*\}/g, 'r'.repeat(44))
      .replace(/\$\{\w+(?::?-([^}]*))?\}/g, (_, fallback?: string) => fallback ?? '');
  }
  return env;
}

/** A Deployment's environment: the ConfigMap, then its env, a Secret's required keys given stand-in values. */
function deploymentEnv(container: Obj, configMap: Env): Env {
  const env: Env = { ...configMap };
  for (const { name, value, valueFrom } of container.env as Obj[]) {
    const ref = valueFrom?.secretKeyRef as Obj | undefined;
    if (value !== undefined) env[name] = String(value);
    else if (ref && !ref.optional)
      env[name] = (ref.key as string).endsWith('DATABASE_URL')
        ? 'postgres://app:pw@postgres.example:5432/pp_db'
        : 'k'.repeat(44);
  }
  return env;
}

/**
 * What compose and Kubernetes check is only the shape of a file; a setting missing, misnamed or empty is
 * seen by the unit itself, which then does not start. So each unit reads here what it is deployed with.
 */
describe('each unit reads the settings it is deployed with', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as Obj;
  const docs = readdirSync(join(repoRoot, 'deploy/k8s'))
    .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
    .flatMap((f) => parseAllDocuments(read(`deploy/k8s/${f}`)).map((d) => d.toJS() as Obj));
  const configMap = docs.find((d) => d.kind === 'ConfigMap' && d.metadata.name === 'planning-poker-config')!
    .data as Env;

  it.each(units.map((u) => u.name))(
    '%s under docker compose, on the port its health check calls',
    async (name) => {
      const service = compose.services[name] as Obj;
      const env = { ...imageEnv(), ...composeEnv(service.environment) };
      const config = (await readConfigOf(name))(env);
      expect(service.healthcheck.test.join(' ')).toContain(`127.0.0.1:${config.PORT}/`);
    },
  );

  it.each(units.map((u) => u.name))('%s on Kubernetes, on its container port', async (name) => {
    const deployment = docs.find((d) => d.kind === 'Deployment' && d.metadata.name === name)!;
    const [container] = deployment.spec.template.spec.containers as Obj[];
    const config = (await readConfigOf(name))(deploymentEnv(container!, configMap));
    expect(config.PORT).toBe(container!.ports[0].containerPort);
  });

  it('has the gateway on Kubernetes take the address its ingress saw, not one a client wrote', async () => {
    const deployment = docs.find((d) => d.kind === 'Deployment' && d.metadata.name === 'gateway')!;
    const [container] = deployment.spec.template.spec.containers as Obj[];
    const env = deploymentEnv(container!, configMap);
    const config = (await readConfigOf('gateway'))(env) as unknown as { TRUST_PROXY: boolean | number };
    // true takes the left-most X-Forwarded-For entry, which the client writes when the ingress appends to it.
    expect(config.TRUST_PROXY).toBe(1);
  });

  it('gives identity and integrations one public address, the one clients use, in compose and on Kubernetes', async () => {
    // Their OAuth redirect URIs and the cookies binding a flow to its browser are made from it.
    const publicUrlOf = async (name: string, env: Env) =>
      ((await readConfigOf(name))(env) as unknown as { PUBLIC_BASE_URL: string }).PUBLIC_BASE_URL;
    const onCompose = async (name: string) =>
      publicUrlOf(name, { ...imageEnv(), ...composeEnv((compose.services[name] as Obj).environment) });
    const onKubernetes = async (name: string) => {
      const deployment = docs.find((d) => d.kind === 'Deployment' && d.metadata.name === name)!;
      return publicUrlOf(
        name,
        deploymentEnv((deployment.spec.template.spec.containers as Obj[])[0]!, configMap),
      );
    };
    expect(await onCompose('identity')).toBe('http://localhost:8080');
    expect(await onCompose('integrations')).toBe(await onCompose('identity'));
    expect(await onKubernetes('identity')).toMatch(/^https:\/\//);
    expect(await onKubernetes('integrations')).toBe(await onKubernetes('identity'));
  });
});
