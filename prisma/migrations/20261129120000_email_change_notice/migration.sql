-- An employee who changes the e-mail they sign in with is told so at the old address (mail kind
-- email_changed, written in the change's transaction by the account repository): the outbox accepts
-- the kind. The outbox is kept short by retention, so checking its rows again here is quick.
ALTER TABLE "mail_outbox" DROP CONSTRAINT "mail_outbox_kind_known";
ALTER TABLE "mail_outbox" ADD CONSTRAINT "mail_outbox_kind_known"
  CHECK (kind IN ('order_placed', 'order_status', 'back_in_stock', 'contact_received', 'password_changed', 'email_changed'));

-- A change counts the employee's notices of the day (three a day at most): by employee, not by a scan
-- of every e-mail the shop keeps.
CREATE INDEX "mail_outbox_employee_id_idx" ON "mail_outbox"("employee_id");
