import { fc, it } from '@fast-check/jest';
import { bodyLimitViolation, MAX_BODY_DEPTH, MAX_BODY_ENTRIES } from './body-limits.ts';

/** `levels` containers inside each other (objects and arrays as `kinds` says), built without recursion. */
function nested(levels: number, kinds: boolean[]): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < levels; i++) value = kinds[i % kinds.length] ? { k: value } : [value];
  return value;
}

describe('body limits', () => {
  it.prop([fc.integer({ min: 1, max: 10_000 }), fc.array(fc.boolean(), { minLength: 1, maxLength: 8 })])(
    'refuses a body exactly when it nests deeper than the limit, at any depth, without overflowing',
    (levels, kinds) => {
      const problem = bodyLimitViolation(nested(levels, kinds));
      expect(problem).toBe(
        levels > MAX_BODY_DEPTH ? `nested deeper than ${MAX_BODY_DEPTH} levels` : undefined,
      );
    },
  );

  it.prop([fc.integer({ min: 0, max: 3 * MAX_BODY_ENTRIES }), fc.integer({ min: 1, max: 50 })])(
    'counts every key and array element, however they are spread',
    (entries, perObject) => {
      const body = Array.from({ length: Math.ceil(entries / (perObject + 1)) }, () =>
        Object.fromEntries(Array.from({ length: perObject }, (_, i) => [`k${i}`, i])),
      );
      const total = body.length * (perObject + 1);
      expect(bodyLimitViolation(body) !== undefined).toBe(total > MAX_BODY_ENTRIES);
    },
  );

  it('lets anything that is not an object or an array through (validation names it)', () => {
    for (const body of [undefined, null, 3, 'text', true]) expect(bodyLimitViolation(body)).toBeUndefined();
  });
});
