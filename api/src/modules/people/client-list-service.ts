import type { PeopleRepository } from './people-repository.ts';

/** All Clients (spec 6.7): newest first, `total` counting them all. */
export function clientListService(repo: PeopleRepository) {
  return {
    async clientRows(skip: number, take: number) {
      const { total, clients } = await repo.clientPage(skip, take);
      return { total, rows: clients };
    },
  };
}

export type ClientListService = ReturnType<typeof clientListService>;
