-- CreateTable
CREATE TABLE "login_names" (
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,

    CONSTRAINT "login_names_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "throttle_counters" (
    "key" TEXT NOT NULL,
    "hits" INTEGER NOT NULL,
    "window_ends_at" TIMESTAMP(3) NOT NULL,
    "last_hit_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "throttle_counters_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "session_families" (
    "id" UUID NOT NULL,
    "audience" "SessionAudience" NOT NULL,
    "subject_id" INTEGER NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_active_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "session_families_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "security_events" (
    "id" BIGSERIAL NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "type" TEXT NOT NULL,
    "actor" TEXT,
    "address" TEXT,
    "entity" TEXT,
    "entity_id" TEXT,
    "details" JSONB,

    CONSTRAINT "security_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "throttle_counters_window_ends_at_idx" ON "throttle_counters"("window_ends_at");

-- CreateIndex
CREATE INDEX "session_families_audience_subject_id_idx" ON "session_families"("audience", "subject_id");

-- CreateIndex
CREATE INDEX "security_events_at_idx" ON "security_events"("at" DESC);

-- CreateIndex
CREATE INDEX "security_events_type_at_idx" ON "security_events"("type", "at" DESC);

-- Hand-written (Prisma cannot express triggers): one namespace of sign-in names. Every insert,
-- e-mail change and delete of a client or an employee keeps login_names in the same statement, so
-- the primary key refuses an e-mail that the other table already holds, whatever runs concurrently.
CREATE FUNCTION keep_login_names() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  -- Trigger arguments: the kind of account, and the column holding its sign-in name.
  row_kind text := TG_ARGV[0];
  name_column text := TG_ARGV[1];
  old_name text;
  new_name text;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    old_name := to_jsonb(OLD) ->> name_column;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    new_name := to_jsonb(NEW) ->> name_column;
  END IF;
  IF old_name IS NOT DISTINCT FROM new_name THEN
    RETURN NULL;
  END IF;
  IF old_name IS NOT NULL THEN
    DELETE FROM login_names WHERE name = old_name AND kind = row_kind;
  END IF;
  IF new_name IS NOT NULL THEN
    INSERT INTO login_names (name, kind) VALUES (new_name, row_kind);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER clients_login_name AFTER INSERT OR DELETE OR UPDATE OF account ON clients
  FOR EACH ROW EXECUTE FUNCTION keep_login_names('client', 'account');
CREATE TRIGGER employees_login_name AFTER INSERT OR DELETE OR UPDATE OF email ON employees
  FOR EACH ROW EXECUTE FUNCTION keep_login_names('employee', 'email');
ALTER TABLE "login_names" ADD CONSTRAINT "login_names_kind" CHECK ("kind" IN ('client', 'employee'));

-- Existing accounts. An e-mail held by both tables already keeps its client row here; the employee
-- must change e-mail (the start-up check of scripts/serve.ts names such clashes).
INSERT INTO login_names (name, kind) SELECT account, 'client' FROM clients ON CONFLICT DO NOTHING;
INSERT INTO login_names (name, kind) SELECT email, 'employee' FROM employees ON CONFLICT DO NOTHING;

-- Sessions signed in before this migration become families of their own.
INSERT INTO session_families (id, audience, subject_id, started_at, last_active_at, revoked_at)
SELECT family_id, min(audience::text)::"SessionAudience", min(subject_id), min(created_at), max(created_at),
       CASE WHEN bool_or(revoked_at IS NOT NULL) THEN max(revoked_at) END
FROM refresh_tokens GROUP BY family_id;
