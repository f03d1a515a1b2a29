// What each e-mail says, as plain text and HTML: pure functions of the facts a message needs, so
// they are read and tested without SMTP. Every message names the shop and the client, links to the
// shop at PUBLIC_URL, and carries no secret and no more personal data than it needs.
import { bookPagePath } from '@bookshop/rules/page-addresses';
import { fromCents, toCents } from '../../lib/money.ts';
import { escapeMarkup } from '../../lib/text.ts';

export const SHOP_NAME = 'Bookshop';

export interface OrderFacts {
  id: number;
  status: string;
  shipmentAddress: string;
  totalQuantity: number;
  totalPrice: string;
  items: { name: string; quantity: number; unitPrice: string }[];
}

/** Every kind of message, once: the dead-letter schema lists them, and the outbox's CHECK constraint is tested against them. */
export const MAIL_KINDS = [
  'order_placed',
  'order_status',
  'back_in_stock',
  'contact_received',
  'password_changed',
  'email_changed',
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];

export type MailFacts =
  | { kind: 'order_placed'; name: string; order: OrderFacts }
  | { kind: 'order_status'; name: string; order: OrderFacts; status: string; reason: string | null }
  | { kind: 'back_in_stock'; name: string; copyId: number; bookName: string }
  | { kind: 'contact_received' }
  | { kind: 'password_changed'; name: string; audience: 'client' | 'employee' }
  /** To the address an employee signed in with until they changed it: the new one is named. */
  | { kind: 'email_changed'; name: string; newAddress: string };

// A kind added to the facts but not to MAIL_KINDS (or the other way) stops the build here.
type Both<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const everyKindListed: Both<MailFacts['kind'], MailKind> = true;
void everyKindListed;

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const money = (amount: string | number) => `$${fromCents(toCents(amount)).toFixed(2)}`;

/** How a status reads in a sentence. */
export const statusWords = (status: string) =>
  ({ pending: 'received', Processing: 'being prepared', Shipped: 'on its way', cancelled: 'cancelled', delivered: 'delivered' })[status] ??
  status.toLowerCase();

/** A message as paragraphs, a table of lines (optional) and a closing link, in both forms. */
function compose(
  subject: string,
  name: string,
  paragraphs: string[],
  link: { label: string; url: string },
  table?: { head: string[]; rows: string[][]; foot: string[] },
  footer: string[] = [],
): RenderedMail {
  const hello = name ? `Hello ${name},` : 'Hello,';
  const textTable = table ? [...table.rows.map((r) => `- ${r.join('  ')}`), `${table.foot.filter(Boolean).join('  ')}`].join('\n') : '';
  const text = [hello, ...paragraphs, textTable, `${link.label}: ${link.url}`, `${SHOP_NAME}`, ...footer].filter(Boolean).join('\n\n');
  const cell = (tag: 'td' | 'th', v: string) => `<${tag} style="padding:4px 8px;text-align:left">${escapeMarkup(v)}</${tag}>`;
  const htmlTable = table
    ? `<table style="border-collapse:collapse"><thead><tr>${table.head.map((h) => cell('th', h)).join('')}</tr></thead><tbody>${table.rows
        .map((r) => `<tr>${r.map((v) => cell('td', v)).join('')}</tr>`)
        .join('')}</tbody><tfoot><tr>${table.foot.map((v) => cell('th', v)).join('')}</tr></tfoot></table>`
    : '';
  const html = `<!doctype html><html><body style="font-family:sans-serif;color:#222">
<p>${escapeMarkup(hello)}</p>
${paragraphs.map((p) => `<p>${escapeMarkup(p).replace(/\n/g, '<br>')}</p>`).join('\n')}
${htmlTable}
<p><a href="${escapeMarkup(link.url)}">${escapeMarkup(link.label)}</a></p>
<p>${SHOP_NAME}</p>
${footer.map((f) => `<p style="font-size:small;color:#666">${escapeMarkup(f)}</p>`).join('\n')}
</body></html>`;
  return { subject, text, html };
}

const orderTable = (order: OrderFacts) => ({
  head: ['Book', 'Quantity', 'Price'],
  rows: order.items.map((i) => [i.name, String(i.quantity), money((toCents(i.unitPrice) * i.quantity) / 100)]),
  foot: ['Total', String(order.totalQuantity), money(order.totalPrice)],
});

/**
 * An address as a notice names it: the first letter of its mailbox, then its domain. Enough for its
 * owner to know it; nothing typed into it reaches a stranger's mail whole (a mistyped address, a
 * web address dressed as a mailbox).
 */
const maskedAddress = (address: string) => {
  const at = address.lastIndexOf('@');
  return at < 1 ? '***' : `${address[0]}***${address.slice(at)}`;
};

/** Renders a message; `unsubscribeUrl` is given for the kinds a client may turn off. */
export function renderMail(facts: MailFacts, publicUrl: string, unsubscribeUrl?: string): RenderedMail {
  const myOrders = { label: 'See your orders', url: `${publicUrl}/orders` };
  const unsubscribe = unsubscribeUrl ? [`You get these e-mails because you asked to. Unsubscribe: ${unsubscribeUrl}`] : [];
  switch (facts.kind) {
    case 'order_placed':
      return compose(
        `Your order #${facts.order.id} at ${SHOP_NAME}`,
        facts.name,
        [`Thank you for your order #${facts.order.id}. We will send it to:\n${facts.order.shipmentAddress}`],
        myOrders,
        orderTable(facts.order),
      );
    case 'order_status':
      return compose(
        `Your order #${facts.order.id} is ${statusWords(facts.status)}`,
        facts.name,
        [
          `Your order #${facts.order.id} is ${statusWords(facts.status)}.`,
          ...(facts.reason ? [`Reason: ${facts.reason}`] : []),
          ...(facts.status === 'cancelled' ? ['You will not be charged for it, and its books are back on our shelves.'] : []),
        ],
        myOrders,
        orderTable(facts.order),
        unsubscribe,
      );
    case 'back_in_stock':
      return compose(
        `${facts.bookName} is back in stock`,
        facts.name,
        [`${facts.bookName}, which you wished for, is back in stock.`],
        { label: 'See the book', url: `${publicUrl}${bookPagePath(facts.copyId, facts.bookName)}` },
        undefined,
        unsubscribe,
      );
    case 'contact_received':
      return compose(`We received your message`, '', ['Thank you for writing to us. We read every message and answer as soon as we can.'], {
        label: `Visit ${SHOP_NAME}`,
        url: publicUrl,
      });
    case 'password_changed':
      return compose(
        `Your ${SHOP_NAME} password was changed`,
        facts.name,
        [
          'The password of your account was just changed, and your other sessions were signed out.',
          'If you did not do this, reset your password at once and tell us.',
        ],
        facts.audience === 'client'
          ? { label: 'Reset your password', url: `${publicUrl}/forgot-password` }
          : { label: 'Sign in', url: `${publicUrl}/login` },
      );
    case 'email_changed':
      return compose(
        `Your ${SHOP_NAME} sign-in e-mail was changed`,
        facts.name,
        [
          `The e-mail you sign in to the back-office with was just changed to ${maskedAddress(facts.newAddress)}. This address no longer signs in.`,
          'If you did not do this, tell an Admin at once: someone else may be using your session.',
        ],
        { label: 'Sign in', url: `${publicUrl}/login` },
      );
  }
}
