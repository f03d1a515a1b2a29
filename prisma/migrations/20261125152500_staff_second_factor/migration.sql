-- Staff second factor (issue 31): authenticator apps (TOTP), passkeys, recovery codes, the short-lived
-- sign-in and WebAuthn challenges, and when a session last proved a second factor (step-up).

-- AlterTable
ALTER TABLE "session_families" ADD COLUMN     "second_factor_at" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "employee_totp" (
    "employee_id" INTEGER NOT NULL,
    "secret" TEXT,
    "pending_secret" TEXT,
    "confirmed_at" TIMESTAMP(3),
    "last_step" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "employee_totp_pkey" PRIMARY KEY ("employee_id")
);

-- CreateTable
CREATE TABLE "employee_passkeys" (
    "id" SERIAL NOT NULL,
    "employee_id" INTEGER NOT NULL,
    "credential_id" TEXT NOT NULL,
    "public_key" BYTEA NOT NULL,
    "counter" BIGINT NOT NULL DEFAULT 0,
    "transports" TEXT[],
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_used_at" TIMESTAMP(3),

    CONSTRAINT "employee_passkeys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "employee_recovery_codes" (
    "id" SERIAL NOT NULL,
    "employee_id" INTEGER NOT NULL,
    "code_hash" TEXT NOT NULL,
    "used_at" TIMESTAMP(3),

    CONSTRAINT "employee_recovery_codes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sign_in_challenges" (
    "token_hash" TEXT NOT NULL,
    "purpose" TEXT NOT NULL,
    "employee_id" INTEGER,
    "webauthn" TEXT,
    "expires_at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "sign_in_challenges_pkey" PRIMARY KEY ("token_hash")
);

-- CreateIndex
CREATE UNIQUE INDEX "employee_passkeys_credential_id_key" ON "employee_passkeys"("credential_id");

-- CreateIndex
CREATE INDEX "employee_passkeys_employee_id_idx" ON "employee_passkeys"("employee_id");

-- CreateIndex
CREATE UNIQUE INDEX "employee_recovery_codes_code_hash_key" ON "employee_recovery_codes"("code_hash");

-- CreateIndex
CREATE INDEX "employee_recovery_codes_employee_id_idx" ON "employee_recovery_codes"("employee_id");

-- CreateIndex
CREATE INDEX "sign_in_challenges_expires_at_idx" ON "sign_in_challenges"("expires_at");

-- AddForeignKey
ALTER TABLE "employee_totp" ADD CONSTRAINT "employee_totp_employee_id_fkey" FOREIGN KEY ("employee_id") REFERENCES "employees"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "employee_passkeys" ADD CONSTRAINT "employee_passkeys_employee_id_fkey" FOREIGN KEY ("employee_id") REFERENCES "employees"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "employee_recovery_codes" ADD CONSTRAINT "employee_recovery_codes_employee_id_fkey" FOREIGN KEY ("employee_id") REFERENCES "employees"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sign_in_challenges" ADD CONSTRAINT "sign_in_challenges_employee_id_fkey" FOREIGN KEY ("employee_id") REFERENCES "employees"("id") ON DELETE CASCADE ON UPDATE CASCADE;
