import type { Db } from '../../plugins/prisma.ts';

const messageSelect = { id: true, userName: true, account: true, message: true, createdAt: true } as const;

export function contactRepository(db: Db) {
  return {
    create: (data: { userName: string; account: string; message: string }) => db.contactMessage.create({ data, select: { id: true } }),
    async page(skip: number, take: number) {
      const [total, messages] = await db.$transaction([
        db.contactMessage.count(),
        db.contactMessage.findMany({ select: messageSelect, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip, take }),
      ]);
      return { total, messages };
    },
    delete: async (id: number) => (await db.contactMessage.deleteMany({ where: { id } })).count === 1,
  };
}
