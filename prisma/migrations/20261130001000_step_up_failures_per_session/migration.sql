-- A session's wrong step-up answers since its last right one: at five the session ends, so a stolen
-- session can no longer spend the employee's own daily allowance of wrong codes and lock their
-- factor for everyone (second-factor-service.ts). A constant default: no rewrite of the table.
ALTER TABLE "session_families" ADD COLUMN "step_up_failures" INTEGER NOT NULL DEFAULT 0;
