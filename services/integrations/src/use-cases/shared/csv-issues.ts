import { ValidationError } from '@pp/http';
import { CsvProblem, parseCsvIssues } from '../../domain/csv-import.ts';
import type { ExternalIssue } from '../../domain/issues.ts';

/** The rows of a CSV as issues, or a 422 whose `errors.csv` names the lines that are wrong. */
export function csvIssues(csv: string): ExternalIssue[] {
  try {
    return parseCsvIssues(csv);
  } catch (err) {
    if (err instanceof CsvProblem)
      throw new ValidationError({ csv: err.problems }, 'The CSV cannot be imported');
    throw err;
  }
}
