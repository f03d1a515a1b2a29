import { domainToASCII } from 'node:url';
import { contactProblems } from '@bookshop/rules';
import { refuse } from '../../lib/refusals.ts';
import type { ContactRepository } from './contact-repository.ts';

/**
 * Receipts one address may get per day, whoever writes: the form takes any e-mail, so without this a
 * stranger could have the shop mail anyone, from its own domain, as often as they liked.
 */
export const CONTACT_RECEIPTS_PER_DAY = 2;
/**
 * Messages the whole shop takes an hour. Each address has its own hourly limit (routes/public/contact.ts),
 * but someone holding many addresses (an IPv6 block of /64s) would pass those one by one: this bounds
 * what they add to the messages by the hour. High, so that filling it takes many addresses: while it
 * is full, nobody can write (429 CONTACT_FORM_BUSY).
 */
export const SHOP_CONTACT_MESSAGES_PER_HOUR = 500;
/**
 * Receipts the whole shop sends an hour, whoever they go to: past it a message is kept and answered
 * as ever, with no receipt. Each mailbox's own two a day leave a block of addresses free to have the
 * shop mail a new stranger with every message; this bounds that well below the messages themselves.
 */
export const SHOP_CONTACT_RECEIPTS_PER_HOUR = 100;
const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** Providers that ignore dots in the local part: a.b@gmail.com and ab@gmail.com are one mailbox. */
const DOTLESS_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox an address delivers to, as far as the shop can tell: its case, a sub-address
 * (`name+anything@`, which most providers deliver to `name@`), quotes around the local part, a
 * trailing dot or an international domain's Unicode spelling and, where the provider ignores them,
 * the local part's dots do not make another. Receipts are counted by it, or `victim+1@`, `victim+2@`
 * … would each get their own two.
 */
export function mailboxOf(address: string) {
  const text = address.trim().toLowerCase();
  const at = text.lastIndexOf('@');
  if (at < 0) return text;
  // A trailing dot names the same domain, and an international domain is its ASCII (punycode) name.
  const written = text.slice(at + 1).replace(/\.+$/, '');
  const domain = domainToASCII(written) || written;
  // A quoted local part is the same mailbox as the one unquoted: "name"@ is name@.
  let local = text
    .slice(0, at)
    .replace(/^"(.*)"$/, '$1')
    .split('+')[0]!;
  if (DOTLESS_DOMAINS.has(domain)) local = local.replaceAll('.', '');
  return `${local}@${domain === 'googlemail.com' ? 'gmail.com' : domain}`;
}

export function contactService(repo: ContactRepository) {
  return {
    /** Spec 5's contact rules (@bookshop/rules, as the form checks them): the first problem is the answer. */
    async send({ userName = '', account = '', message = '' }: { userName?: string; account?: string; message?: string }) {
      const [problem] = contactProblems({ name: userName, email: account, message });
      if (problem) throw refuse.form(problem.message, problem.code);
      const shop = await repo.countShopMessage(HOUR_MS);
      if (shop.hits > SHOP_CONTACT_MESSAGES_PER_HOUR) throw refuse.contactFormBusy(Math.ceil(shop.ttlMs / 1000));
      // The shop's hour counts only the receipts a mailbox's own day allows.
      const receipt =
        (await repo.countReceipt(mailboxOf(account), DAY_MS)) <= CONTACT_RECEIPTS_PER_DAY &&
        (await repo.countShopReceipt(HOUR_MS)) <= SHOP_CONTACT_RECEIPTS_PER_HOUR;
      await repo.create({ userName: userName.trim(), account: account.trim(), message: message.trim() }, receipt);
    },
    /** Newest first; `total` counts them all. */
    async rows(skip: number, take: number) {
      const { total, messages } = await repo.page(skip, take);
      return { total, rows: messages };
    },
    async remove(id: number) {
      if (!(await repo.delete(id))) throw refuse.noMessage();
    },
  };
}

export type ContactService = ReturnType<typeof contactService>;
