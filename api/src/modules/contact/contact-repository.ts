import type { Db } from '../../plugins/prisma.ts';
import { countHit } from '../security/counters.ts';

const messageSelect = { id: true, userName: true, account: true, message: true, createdAt: true } as const;

export type ContactRepository = ReturnType<typeof contactRepository>;

export function contactRepository(db: Db) {
  return {
    /** Counts one receipt asked for `account` in its day-long window, shared by every instance: the hits so far. */
    countReceipt: async (account: string, windowMs: number) => (await countHit(db, `contact-receipt:${account}`, windowMs)).hits,
    /** Counts one message in the shop's own window, whoever sends it: the hits so far and the time left. */
    countShopMessage: (windowMs: number) => countHit(db, 'contact-shop', windowMs),
    /** Counts one receipt in the shop's own window, whoever it goes to: the hits so far. */
    countShopReceipt: async (windowMs: number) => (await countHit(db, 'contact-shop-receipt', windowMs)).hits,
    /** The message, and (when `receipt`) the e-mail telling its sender it arrived, in one transaction. */
    create: (data: { userName: string; account: string; message: string }, receipt: boolean) =>
      db.$transaction(async (tx) => {
        const { id } = await tx.contactMessage.create({ data, select: { id: true } });
        if (receipt) await tx.mailOutbox.create({ data: { kind: 'contact_received', contactMessageId: id }, select: { id: true } });
      }),
    async page(skip: number, take: number) {
      const [total, messages] = await Promise.all([
        db.contactMessage.count(),
        db.contactMessage.findMany({ select: messageSelect, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip, take }),
      ]);
      return { total, messages };
    },
    delete: async (id: number) => (await db.contactMessage.deleteMany({ where: { id } })).count === 1,
  };
}
