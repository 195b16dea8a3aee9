/**
 * SQL for migrations that bring stored text to Unicode's composed form (NFC), the form inputs are read
 * in: PostgreSQL normalises text only when the server's encoding is UTF-8, so the statements run
 * only there (`whereUtf8`).
 */

/** A JSON array of texts (an SQL expression) in NFC, keeping the first of any that become the same. */
export const nfcTextArray = (array: string) => `(
  select jsonb_agg(t order by n) from (
    select distinct on (normalize(a.t, NFC)) normalize(a.t, NFC) as t, a.n
    from jsonb_array_elements_text(${array}) with ordinality as a(t, n)
    order by normalize(a.t, NFC), a.n
  ) as d
)`;

/** Whether a JSON array (an SQL expression) holds a text that NFC would change. */
export const hasNonNfcText = (array: string) =>
  `jsonb_typeof(${array}) = 'array' and exists (select 1 from jsonb_array_elements_text(${array}) as a(t) where a.t is not nfc normalized)`;

/** The statements, run only on a UTF-8 server (elsewhere the text stays as it is). */
export const whereUtf8 = (statements: string[]) =>
  `do $$ begin
    if current_setting('server_encoding') <> 'UTF8' then return; end if;
    ${statements.map((s) => `${s};`).join('\n    ')}
  end $$`;
