import { actionsOf, readStory } from './story-form.ts';

const phrases = (goal: string) => actionsOf(goal).map((a) => a.phrase);

describe('reading a story', () => {
  it('splits a goal where a verb starts the next feature, and only there', () => {
    expect(phrases('search products, filter them by price and save favourites')).toEqual([
      'search products',
      'filter products by price',
      'save favourites',
    ]);
    expect(phrases('create, edit and delete invoices')).toEqual([
      'create invoices',
      'edit invoices',
      'delete invoices',
    ]);
    expect(phrases('read the terms and conditions')).toEqual(['read the terms and conditions']);
    expect(phrases('books classes and cancels bookings')).toEqual(['book classes', 'cancel bookings']);
  });

  it('finds role, goal and value of the user-story form, the criteria lines and the conditions', () => {
    const reading = readStory({
      title: 'Checkout',
      description:
        'As a buyer, I want to pay with a saved card so that checkout takes one step. If the card is declined I can retry.',
      acceptance_criteria: '- Given a saved card\n2) Totals include tax',
    });
    expect(reading).toMatchObject({
      role: 'buyer',
      goal: 'pay with a saved card',
      benefit: 'checkout takes one step',
      storyForm: true,
      criteria: ['Given a saved card', 'Totals include tax'],
      conditions: ['if the card is declined'],
    });
  });

  it('reads a goal from a title that starts with a verb, and a role from "allow <role>s to"', () => {
    expect(
      readStory({ title: 'Export invoices to PDF', description: '', acceptance_criteria: '' }),
    ).toMatchObject({
      role: null,
      goal: 'export invoices to PDF',
      storyForm: false,
    });
    expect(
      readStory({ title: 'Allow admins to delete users', description: '', acceptance_criteria: '' }),
    ).toMatchObject({
      role: 'admin',
      goal: 'delete users',
    });
  });
});
