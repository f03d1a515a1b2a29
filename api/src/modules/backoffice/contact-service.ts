import { contactProblems } from '@bookshop/rules';
import { refuse } from '../../lib/refusals.ts';
import type { Db } from '../../plugins/prisma.ts';
import { contactRepository } from './contact-repository.ts';

export function contactService(db: Db) {
  const repo = contactRepository(db);
  return {
    /** Spec 5's contact rules (@bookshop/rules, as the form checks them): the first problem is the answer. */
    async send(input: { userName?: string; account?: string; message?: string }) {
      const [problem] = contactProblems({ name: input.userName, email: input.account, message: input.message });
      if (problem) throw refuse.form(problem.message, problem.code);
      await repo.create({ userName: input.userName!.trim(), account: input.account!.trim(), message: input.message!.trim() });
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
