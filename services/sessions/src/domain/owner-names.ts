/**
 * A folder's or a template's name is one per owner in any case: what two names are compared by. Upper
 * then lower case, as Unicode's case folding does it (Straße and STRASSE, a final ς and σ are one
 * name), in JavaScript rather than with PostgreSQL's lower(), which lowers only ASCII letters in a
 * database made with the C locale (Équipe and équipe would be two names there). Names come in NFC.
 */
export const nameKey = (name: string): string => name.normalize('NFC').toUpperCase().toLowerCase();
