// The values spec section 3 keeps in the browser, under the spec's names.
const KEYS = { bookId: 'BookId', userType: 'UserType', searchQuery: 'searchQuery', shippingAddress: 'ShippingAddress' } as const;
type Key = keyof typeof KEYS;

const read = (key: Key) => {
  try {
    return localStorage.getItem(KEYS[key]);
  } catch {
    return null;
  }
};
const remove = (key: Key) => {
  try {
    localStorage.removeItem(KEYS[key]);
  } catch {
    /* storage blocked: nothing was kept */
  }
};
const write = (key: Key, value: string) => {
  try {
    localStorage.setItem(KEYS[key], value);
  } catch {
    /* storage full or blocked: the value lives for this page only */
  }
};

export const storage = {
  getBookId: () => {
    const id = Number(read('bookId'));
    return Number.isInteger(id) && id > 0 ? id : null;
  },
  setBookId: (id: number) => write('bookId', String(id)),
  getUserType: () => read('userType') || 'Client',
  setUserType: (type: string) => write('userType', type),
  getSearchQuery: () => read('searchQuery') ?? '',
  setSearchQuery: (text: string) => write('searchQuery', text),
  getShippingAddress: () => read('shippingAddress') ?? '',
  setShippingAddress: (address: string) => write('shippingAddress', address),
  forgetShippingAddress: () => remove('shippingAddress'),
};
