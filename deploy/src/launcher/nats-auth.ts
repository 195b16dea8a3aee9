import { brokerPermissions, brokerUserNames, natsPasswordVariable, type BrokerUserName } from '@pp/events';

const list = (subjects: readonly string[]) => `[${subjects.map((s) => JSON.stringify(s)).join(', ')}]`;

/** One user of the authorization block: its password read from the server's environment. */
function userEntry(user: BrokerUserName, prefix: string): string {
  const { publish, subscribe } = brokerPermissions(user, prefix);
  // An empty allow list would allow everything: a user that publishes nothing is denied every subject.
  const publishRule = publish.length > 0 ? `allow: ${list(publish)}` : `deny: [">"]`;
  return [
    '    {',
    `      user: ${JSON.stringify(user)}`,
    `      password: $${natsPasswordVariable(user)}`,
    '      permissions: {',
    `        publish: { ${publishRule} }`,
    `        subscribe: { allow: ${list(subscribe)} }`,
    '      }',
    '    }',
  ].join('\n');
}

/** How long a client may take to present its credentials, in seconds. */
export const AUTH_TIMEOUT_SECONDS = 10;

/**
 * The nats-server configuration that requires a user per unit, each allowed its own subjects only
 * (libs/events' broker-permissions.ts). The passwords are `$<UNIT>_NATS_PASSWORD` references that
 * nats-server reads from its environment, so the same text serves `npm start`, docker compose and
 * Kubernetes, and holds no secret. A server without all of them set refuses to start.
 */
export function natsAuthorization(prefix = 'pp'): string {
  return [
    '# Generated from libs/events/src/broker-permissions.ts by deploy/src/launcher/nats-auth.ts: do not edit.',
    '# One user per unit; each publishes only its own events (and what JetStream needs).',
    'authorization {',
    // Seconds a client has to send its credentials after connecting (nats-server's default is 2): a
    // unit starting on a busy machine can take longer than that, and is then refused as if unknown.
    `  timeout: ${AUTH_TIMEOUT_SECONDS}`,
    '  users = [',
    brokerUserNames.map((user) => userEntry(user, prefix)).join('\n'),
    '  ]',
    '}',
    '',
  ].join('\n');
}

/**
 * What nats-server takes as a password from its environment: it reads the value as configuration,
 * where one starting with a digit may be a number (`12e45...`) and one starting with `-` is an error.
 */
const SAFE_PASSWORD = /^[A-Za-z][A-Za-z0-9_-]{15,}$/;

/** The environment nats-server needs for natsAuthorization: each unit's password, by its variable. */
export function natsPasswordEnvironment(passwords: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    brokerUserNames.map((user) => {
      const variable = natsPasswordVariable(user);
      const password = passwords[variable] ?? '';
      if (!SAFE_PASSWORD.test(password))
        throw new Error(
          `${variable} must be at least 16 letters, digits, - or _, starting with a letter (e.g. pw$(openssl rand -hex 32))`,
        );
      return [variable, password];
    }),
  );
}
