import { badRequest, notFound } from '../../lib/errors.ts';
import { CONTACT_MESSAGE_MAX, EMAIL, isBlank } from '../../lib/validation.ts';
import type { Db } from '../../plugins/prisma.ts';
import { contactRepository } from './contact-repository.ts';

export function contactService(db: Db) {
  const repo = contactRepository(db);
  return {
    /** Spec 5's contact rules, in the order the form checks them, with its messages. */
    async send(input: { userName?: string; account?: string; message?: string }) {
      if (isBlank(input.userName)) throw badRequest('Name is required', 'NAME_REQUIRED');
      if (isBlank(input.account)) throw badRequest('Email is required', 'EMAIL_REQUIRED');
      if (!EMAIL.test(input.account!.trim())) throw badRequest('Invalid email format', 'EMAIL_INVALID');
      if (isBlank(input.message)) throw badRequest('Message is required', 'MESSAGE_REQUIRED');
      if (input.message!.trim().length > CONTACT_MESSAGE_MAX) throw badRequest('Message must be 50 characters or less', 'MESSAGE_TOO_LONG');
      await repo.create({ userName: input.userName!.trim(), account: input.account!.trim(), message: input.message!.trim() });
    },
    /** Newest first; `total` counts them all. */
    async rows(skip: number, take: number) {
      const { total, messages } = await repo.page(skip, take);
      return { total, rows: messages };
    },
    async remove(id: number) {
      if (!(await repo.delete(id))) throw notFound('This message does not exist.');
    },
  };
}

export type ContactService = ReturnType<typeof contactService>;
