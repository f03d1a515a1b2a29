// POST /api/public/unsubscribe (beyond the spec): the signed link of an e-mail turns its list off.
import { useMutation } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';

export interface UnsubscribeLink {
  client: number;
  list: 'status' | 'back_in_stock';
  token: string;
}

const unsubscribe = (query: UnsubscribeLink) => unwrap(api.POST('/api/public/unsubscribe', { params: { query } }));

/** Nothing cached changes here: the account page reads the choices afresh. */
export const useUnsubscribe = () => useMutation({ mutationFn: unsubscribe });
