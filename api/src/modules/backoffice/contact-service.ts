import { contactProblems } from '@bookshop/rules';
import { refuse } from '../../lib/refusals.ts';
import type { Db } from '../../plugins/prisma.ts';
import { contactRepository } from './contact-repository.ts';

export function contactService(db: Db) {
  const repo = contactRepository(db);
  return {
    /** Spec 5's contact rules (@bookshop/rules, as the form checks them): the first problem is the answer. */
    async send({ userName = '', account = '', message = '' }: { userName?: string; account?: string; message?: string }) {
      const [problem] = contactProblems({ name: userName, email: account, message });
      if (problem) throw refuse.form(problem.message, problem.code);
      await repo.create({ userName: userName.trim(), account: account.trim(), message: message.trim() });
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
