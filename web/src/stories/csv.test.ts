import { parseCsv, storiesFromCsv } from './csv.ts';

describe('CSV paste import', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, any line ending', () => {
    expect(parseCsv('a,"b, c","say ""hi""\nthere"\r\n\r\nd,e,\n')).toEqual([
      ['a', 'b, c', 'say "hi"\nthere'],
      ['d', 'e', ''],
    ]);
    expect(parseCsv('x\ty\nz\tw')).toEqual([
      ['x', 'y'],
      ['z', 'w'],
    ]);
  });

  it('maps the columns a header names, in any order', () => {
    const { stories, problems } = storiesFromCsv(
      '\uFEFFDescription,Title,Acceptance Criteria,Owner\nThe form,Login page,"Given a user\nWhen...",ann\n,Signup,,\n',
    );
    expect(stories).toEqual([
      { title: 'Login page', description: 'The form', acceptance_criteria: 'Given a user\nWhen...' },
      { title: 'Signup' },
    ]);
    expect(problems).toEqual([]);
  });

  it('takes title, description, criteria in order without a header, and lists the rows it cannot send', () => {
    const long = 'x'.repeat(201);
    const { stories, problems } = storiesFromCsv(`Login page,The form\n,no title\n${long}\nLogout`);
    expect(stories).toEqual([{ title: 'Login page', description: 'The form' }, { title: 'Logout' }]);
    expect(problems).toEqual(['line 2: no title', 'line 3: title over 200 characters']);
  });
});
