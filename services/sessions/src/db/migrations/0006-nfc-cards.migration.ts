import { hasNonNfcText, Migration, nfcTextArray, whereUtf8 } from '@pp/db';

/**
 * Cards and votes are read in Unicode's composed form (NFC) from now on (é typed as one character or
 * as e and an accent is one card): the cards of the custom decks kept before (sessions, workspace
 * defaults, templates) and the votes cast with them are brought to that form, so that they still match.
 */
export class NfcCardsMigration extends Migration {
  override async up(): Promise<void> {
    const inJson = (column: string) => `${column}->'custom_deck_values'`;
    this.addSql(
      whereUtf8([
        `update sessions set custom_deck_values = ${nfcTextArray('custom_deck_values')}
          where ${hasNonNfcText('custom_deck_values')}`,
        ...['workspaces.defaults', 'templates.settings'].map((at) => {
          const [table, column] = at.split('.') as [string, string];
          return `update ${table} set ${column} = jsonb_set(${column}, '{custom_deck_values}', ${nfcTextArray(inJson(column))})
          where ${hasNonNfcText(inJson(column))}`;
        }),
        'update votes set value = normalize(value, NFC) where value is not nfc normalized',
      ]),
    );
  }

  /** The composed form is the same text: there is nothing to undo. */
  override async down(): Promise<void> {}
}
