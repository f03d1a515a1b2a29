import { contactProblems } from '@bookshop/rules';
import { refuse } from '../../lib/refusals.ts';
import type { ContactRepository } from './contact-repository.ts';

/**
 * Receipts one address may get per day, whoever writes: the form takes any e-mail, so without this a
 * stranger could have the shop mail anyone, from its own domain, as often as they liked.
 */
export const CONTACT_RECEIPTS_PER_DAY = 2;
const DAY_MS = 24 * 60 * 60 * 1000;

export function contactService(repo: ContactRepository) {
  return {
    /** Spec 5's contact rules (@bookshop/rules, as the form checks them): the first problem is the answer. */
    async send({ userName = '', account = '', message = '' }: { userName?: string; account?: string; message?: string }) {
      const [problem] = contactProblems({ name: userName, email: account, message });
      if (problem) throw refuse.form(problem.message, problem.code);
      const hits = await repo.countReceipt(account.trim().toLowerCase(), DAY_MS);
      await repo.create({ userName: userName.trim(), account: account.trim(), message: message.trim() }, hits <= CONTACT_RECEIPTS_PER_DAY);
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
