// A stock change's reason, for the ledger (stock_movements, decision record 12). The trigger that
// writes the movement reads it from a transaction-local setting, as the audit trigger reads the
// employee; writers whose reason does not follow from the change itself name it first.
import type { Prisma } from '../generated/prisma/client.ts';

export type NamedStockReason = 'restock' | 'import' | 'cancellation';

export const nameStockReason = (tx: Prisma.TransactionClient, reason: NamedStockReason, reference = '') =>
  tx.$executeRaw`SELECT set_config('bookshop.stock_reason', ${reason}, true), set_config('bookshop.stock_reference', ${reference}, true)`;
