import { endpointToolInput, type PathsDescription } from './tool-input.ts';
import type { EndpointTool } from './tools.ts';

const tool: EndpointTool = {
  kind: 'endpoint',
  name: 'add_story',
  title: 'Add a story',
  description: 'Adds a story',
  unit: 'stories',
  method: 'POST',
  path: '/sessions/{code}/stories',
  pathInputs: { code: 'code' },
  rest: 'body',
  readOnly: false,
};

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A unit's description: the tool's body names Label, which names Color; the rest are other paths' schemas. */
const description: PathsDescription = {
  paths: {
    '/sessions/{code}/stories': {
      post: { requestBody: { content: { 'application/json': { schema: ref('CreateStoryRequest') } } } },
    },
  },
  components: {
    schemas: {
      CreateStoryRequest: {
        type: 'object',
        properties: { title: { type: 'string' }, labels: { type: 'array', items: ref('Label') } },
        required: ['title'],
        additionalProperties: false,
      },
      Label: { type: 'object', properties: { color: ref('Color') } },
      Color: { type: 'string', pattern: '^#[0-9a-f]{6}$' },
      Story: { type: 'object', properties: { id: { type: 'string' }, labels: ref('Label') } },
      Analytics: { type: 'object', properties: { history: { type: 'array', items: ref('Story') } } },
    },
  },
};

describe("a tool's input", () => {
  it("holds the endpoint's body and the path's inputs, with only the definitions the body uses", () => {
    const input = endpointToolInput(tool, description);
    expect(input).toMatchObject({
      type: 'object',
      properties: { code: { type: 'string' }, title: { type: 'string' } },
      required: ['code', 'title'],
      additionalProperties: false,
    });
    expect(Object.keys(input.$defs as object).sort()).toEqual(['Color', 'Label']);
    expect(JSON.stringify(input)).not.toContain('#/components/');
  });

  it('carries no definitions when its inputs use none', () => {
    const activate = {
      ...tool,
      path: '/stories/{story}/activate',
      pathInputs: { story: 'story_id' },
      rest: 'none',
    };
    const input = endpointToolInput(activate as EndpointTool, description);
    expect(input).toEqual({
      type: 'object',
      properties: { story_id: { type: 'string', description: 'The story id (UUID)' } },
      required: ['story_id'],
      additionalProperties: false,
    });
  });
});
