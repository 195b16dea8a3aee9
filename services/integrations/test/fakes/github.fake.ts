import { startFake, type FakeResponse, type SeenRequest } from './fake-server.ts';

export const GITHUB_TOKEN = 'ghp_fake_token_0123456789';

interface Issue {
  id: number;
  number: number;
  title: string;
  body: string | null;
  html_url: string;
  labels: Array<{ name: string }>;
  pull_request?: { url: string };
}

/**
 * GitHub's REST API for one repository (`octo/planning`) under `/api/v3` (the Enterprise Server root):
 * the user, the repository, open issues 100 a page with a Link header (pull requests among them),
 * single issues, comments and labels. Refuses any other token with 401, as GitHub does.
 */
export async function startGithubFake(options: { issues?: number; pullEvery?: number } = {}) {
  const issues: Issue[] = [];
  const count = options.issues ?? 3;
  for (let n = 1; n <= count; n++) {
    const pull = options.pullEvery ? n % options.pullEvery === 0 : false;
    issues.push({
      id: 1000 + n,
      number: n,
      title: `Issue ${n}`,
      body: n === 1 ? 'Some **markdown**' : null,
      html_url: `https://github.example/octo/planning/issues/${n}`,
      labels: n === 1 ? [{ name: 'backend' }, { name: 'estimate: 3' }] : [],
      ...(pull ? { pull_request: { url: 'x' } } : {}),
    });
  }
  const comments: Array<{ issue: number; body: string }> = [];
  const tokens = new Set([GITHUB_TOKEN]);
  const base = '/api/v3';
  const repo = `${base}/repos/octo/planning`;

  const fake = await startFake((req: SeenRequest): FakeResponse => {
    if (!tokens.has(String(req.headers.authorization).replace(/^Bearer /, '')))
      return { status: 401, json: { message: 'Bad credentials' } };
    if (req.method === 'GET' && req.path === `${base}/user`) return { json: { login: 'octocat', id: 1 } };
    if (req.method === 'GET' && req.path === repo)
      return { json: { full_name: 'octo/planning', permissions: { push: true } } };
    if (req.method === 'GET' && req.path === `${repo}/issues`) {
      const perPage = Number(req.query.get('per_page') ?? 30);
      const page = Number(req.query.get('page') ?? 1);
      const wanted = (req.query.get('labels') ?? '').split(',').filter(Boolean);
      const matching = issues.filter((i) => wanted.every((w) => i.labels.some((l) => l.name === w)));
      const slice = matching.slice((page - 1) * perPage, page * perPage);
      const last = Math.ceil(matching.length / perPage);
      const link = (p: number, rel: string) =>
        `<${fake.url}${repo}/issues?per_page=${perPage}&page=${p}>; rel="${rel}"`;
      const links = page < last ? [link(page + 1, 'next'), link(last, 'last')].join(', ') : '';
      return { json: slice, headers: links ? { link: links } : undefined };
    }
    const one = req.path.match(/\/issues\/(\d+)(\/comments|\/labels(?:\/.*)?)?$/);
    const issue = one ? issues.find((i) => i.number === Number(one[1])) : undefined;
    if (!one || !issue) return { status: 404, json: { message: 'Not Found' } };
    if (req.method === 'GET' && !one[2]) return { json: issue };
    if (req.method === 'POST' && one[2] === '/comments') {
      comments.push({ issue: issue.number, body: req.json.body });
      return { status: 201, json: { id: comments.length, body: req.json.body } };
    }
    if (req.method === 'POST' && one[2] === '/labels') {
      issue.labels.push(...(req.json.labels as string[]).map((name) => ({ name })));
      return { json: issue.labels };
    }
    if (req.method === 'DELETE' && one[2]?.startsWith('/labels/')) {
      const name = decodeURIComponent(one[2].slice('/labels/'.length));
      if (!issue.labels.some((l) => l.name === name))
        return { status: 404, json: { message: 'Label does not exist' } };
      issue.labels = issue.labels.filter((l) => l.name !== name);
      return { json: issue.labels };
    }
    return { status: 404, json: { message: 'Not Found' } };
  });
  return { ...fake, apiUrl: `${fake.url}${base}`, issues, comments, tokens };
}
