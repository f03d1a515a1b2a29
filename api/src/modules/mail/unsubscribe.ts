// One-click unsubscribe (RFC 8058): each status or back-in-stock e-mail carries a link naming the
// client and the list, signed with the shop's secret, so only the e-mail's reader can turn it off.
import { createHmac, timingSafeEqual } from 'node:crypto';

export const UNSUBSCRIBE_LISTS = ['status', 'back_in_stock'] as const;
export type UnsubscribeList = (typeof UNSUBSCRIBE_LISTS)[number];

const sign = (secret: string, clientId: number, list: UnsubscribeList) =>
  createHmac('sha256', `${secret}:unsubscribe`).update(`${clientId}:${list}`).digest('base64url');

/**
 * The two addresses of one unsubscribe: `oneClick` for the List-Unsubscribe header (mail programs
 * POST to it), `page` for the e-mail's own link (the storefront's page, which asks first: a link
 * scanner's GET changes nothing).
 */
export function unsubscribeUrls(publicUrl: string, secret: string, clientId: number, list: UnsubscribeList) {
  const query = new URLSearchParams({ client: String(clientId), list, token: sign(secret, clientId, list) });
  return { oneClick: `${publicUrl}/api/public/unsubscribe?${query}`, page: `${publicUrl}/unsubscribe?${query}` };
}

export function validUnsubscribe(secret: string, clientId: number, list: UnsubscribeList, token: string) {
  const expected = Buffer.from(sign(secret, clientId, list));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
