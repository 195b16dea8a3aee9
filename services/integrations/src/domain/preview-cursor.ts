/** Where a preview continues: the provider's page (its own cursor) and how many of its issues were shown. */
export interface PreviewCursor {
  page: string | undefined;
  skip: number;
}

export const encodeCursor = (c: PreviewCursor) =>
  Buffer.from(JSON.stringify({ p: c.page ?? null, s: c.skip })).toString('base64url');

export function decodeCursor(cursor: string): PreviewCursor | undefined {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as {
      p?: unknown;
      s?: unknown;
    };
    const page = value.p === null ? undefined : value.p;
    if (
      (page !== undefined && typeof page !== 'string') ||
      !Number.isInteger(value.s) ||
      (value.s as number) < 0
    )
      return undefined;
    return { page: page as string | undefined, skip: value.s as number };
  } catch {
    return undefined;
  }
}
