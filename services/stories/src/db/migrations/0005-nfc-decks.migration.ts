import { hasNonNfcText, Migration, nfcTextArray, whereUtf8 } from '@pp/db';

/**
 * The sessions unit reads cards and votes in Unicode's composed form (NFC) from now on: the decks this
 * unit keeps of its sessions are brought to that form, so that the votes still count at the reveal.
 */
export class NfcDecksMigration extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      whereUtf8([`update sessions set deck = ${nfcTextArray('deck')} where ${hasNonNfcText('deck')}`]),
    );
  }

  /** The composed form is the same text: there is nothing to undo. */
  override async down(): Promise<void> {}
}
