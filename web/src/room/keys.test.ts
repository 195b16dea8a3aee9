import { pickByKeys } from './keys.ts';

const fibonacci = ['0', '0.5', '1', '2', '3', '5', '8', '13', '20', '40', '100', '?', 'coffee'];
const tshirt = ['XS', 'S', 'M', 'L', 'XL', 'XXL', '?', 'coffee'];

describe('keyboard play', () => {
  it('picks a number card by its value, waiting while a longer value may come', () => {
    expect(pickByKeys(fibonacci, '5')).toEqual({ card: '5', pending: '' });
    expect(pickByKeys(fibonacci, '1')).toEqual({ card: '1', pending: '1' });
    expect(pickByKeys(fibonacci, '13')).toEqual({ card: '13', pending: '' });
    expect(pickByKeys(fibonacci, '10')).toEqual({ card: undefined, pending: '10' });
    expect(pickByKeys(fibonacci, '100')).toEqual({ card: '100', pending: '' });
    expect(pickByKeys(fibonacci, '0')).toEqual({ card: '0', pending: '0' });
    expect(pickByKeys(fibonacci, '0.5')).toEqual({ card: '0.5', pending: '' });
  });

  it('picks by place in a deck without numbers, and ? and c everywhere', () => {
    expect(pickByKeys(tshirt, '3')).toEqual({ card: 'M', pending: '' });
    expect(pickByKeys(tshirt, '9')).toEqual({ card: undefined, pending: '' });
    expect(pickByKeys(fibonacci, '7')).toEqual({ card: undefined, pending: '' });
    expect(pickByKeys(tshirt, '?').card).toBe('?');
    expect(pickByKeys(tshirt, 'C').card).toBe('coffee');
    expect(pickByKeys(['1', '2'], 'c').card).toBeUndefined();
  });
});
