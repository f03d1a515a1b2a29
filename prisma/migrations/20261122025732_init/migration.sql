-- Hand-written: trigram matching backs the typo-tolerant search indexes below.
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateEnum
CREATE TYPE "Gender" AS ENUM ('Male', 'Female');

-- CreateEnum
CREATE TYPE "EmployeeRole" AS ENUM ('Admin', 'Seller');

-- CreateEnum
CREATE TYPE "SessionAudience" AS ENUM ('client', 'employee');

-- CreateTable
CREATE TABLE "book_types" (
    "id" SERIAL NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "book_types_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "authors" (
    "id" SERIAL NOT NULL,
    "full_name" TEXT NOT NULL,

    CONSTRAINT "authors_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "books" (
    "id" SERIAL NOT NULL,
    "isbn13" CHAR(13),
    "name" TEXT NOT NULL,
    "pages_number" INTEGER,
    "published_at" DATE,
    "description" TEXT,
    "image_url" TEXT,
    "search_text" TEXT NOT NULL,
    "ratings_count" INTEGER NOT NULL DEFAULT 0,
    "ratings_sum" BIGINT NOT NULL DEFAULT 0,
    "author_id" INTEGER NOT NULL,
    "type_id" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "books_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "book_copies" (
    "id" SERIAL NOT NULL,
    "book_id" INTEGER NOT NULL,
    "quantity" INTEGER NOT NULL,
    "price" DECIMAL(10,2) NOT NULL,
    "is_available" BOOLEAN NOT NULL DEFAULT true,
    "units_sold" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "book_copies_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "clients" (
    "id" SERIAL NOT NULL,
    "first_name" TEXT NOT NULL,
    "last_name" TEXT NOT NULL,
    "phone_number" TEXT NOT NULL,
    "account" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "firebase_uid" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "clients_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "employees" (
    "id" SERIAL NOT NULL,
    "first_name" TEXT NOT NULL,
    "last_name" TEXT NOT NULL,
    "gender" "Gender" NOT NULL,
    "birth_date" DATE NOT NULL,
    "email" TEXT NOT NULL,
    "phone_number" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "password_hash" TEXT NOT NULL,
    "role" "EmployeeRole" NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "employees_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "cart_items" (
    "id" SERIAL NOT NULL,
    "client_id" INTEGER NOT NULL,
    "book_copy_id" INTEGER NOT NULL,
    "quantity" INTEGER NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "cart_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "orders" (
    "id" SERIAL NOT NULL,
    "client_id" INTEGER NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "shipment_address" TEXT NOT NULL,
    "total_quantity" INTEGER NOT NULL,
    "total_price" DECIMAL(12,2) NOT NULL,
    "idempotency_key" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "orders_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "order_items" (
    "id" SERIAL NOT NULL,
    "order_id" INTEGER NOT NULL,
    "book_copy_id" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "image_url" TEXT,
    "unit_price" DECIMAL(10,2) NOT NULL,
    "quantity" INTEGER NOT NULL,

    CONSTRAINT "order_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "contact_messages" (
    "id" SERIAL NOT NULL,
    "user_name" TEXT NOT NULL,
    "account" TEXT NOT NULL,
    "message" VARCHAR(50) NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contact_messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "refresh_tokens" (
    "id" UUID NOT NULL,
    "family_id" UUID NOT NULL,
    "audience" "SessionAudience" NOT NULL,
    "subject_id" INTEGER NOT NULL,
    "token_hash" TEXT NOT NULL,
    "expires_at" TIMESTAMP(3) NOT NULL,
    "used_at" TIMESTAMP(3),
    "revoked_at" TIMESTAMP(3),
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "refresh_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "book_types_name_key" ON "book_types"("name");

-- CreateIndex
CREATE UNIQUE INDEX "authors_full_name_key" ON "authors"("full_name");

-- CreateIndex
CREATE INDEX "authors_full_name_trgm_idx" ON "authors" USING GIN ("full_name" gin_trgm_ops);

-- CreateIndex
CREATE UNIQUE INDEX "books_isbn13_key" ON "books"("isbn13");

-- CreateIndex
CREATE INDEX "books_author_id_idx" ON "books"("author_id");

-- CreateIndex
CREATE INDEX "books_type_id_idx" ON "books"("type_id");

-- CreateIndex
CREATE INDEX "books_published_at_idx" ON "books"("published_at" DESC);

-- CreateIndex
CREATE INDEX "books_ratings_count_idx" ON "books"("ratings_count" DESC);

-- CreateIndex
CREATE INDEX "books_search_text_trgm_idx" ON "books" USING GIN ("search_text" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "books_name_trgm_idx" ON "books" USING GIN ("name" gin_trgm_ops);

-- CreateIndex
CREATE INDEX "book_copies_book_id_idx" ON "book_copies"("book_id");

-- CreateIndex
CREATE INDEX "book_copies_units_sold_idx" ON "book_copies"("units_sold" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "clients_account_key" ON "clients"("account");

-- CreateIndex
CREATE UNIQUE INDEX "clients_firebase_uid_key" ON "clients"("firebase_uid");

-- CreateIndex
CREATE INDEX "clients_created_at_idx" ON "clients"("created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "employees_email_key" ON "employees"("email");

-- CreateIndex
CREATE INDEX "cart_items_book_copy_id_idx" ON "cart_items"("book_copy_id");

-- CreateIndex
CREATE UNIQUE INDEX "cart_items_client_id_book_copy_id_key" ON "cart_items"("client_id", "book_copy_id");

-- CreateIndex
CREATE INDEX "orders_client_id_created_at_idx" ON "orders"("client_id", "created_at" DESC);

-- CreateIndex
CREATE INDEX "orders_created_at_idx" ON "orders"("created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "orders_client_id_idempotency_key_key" ON "orders"("client_id", "idempotency_key");

-- CreateIndex
CREATE INDEX "order_items_order_id_idx" ON "order_items"("order_id");

-- CreateIndex
CREATE INDEX "order_items_book_copy_id_idx" ON "order_items"("book_copy_id");

-- CreateIndex
CREATE INDEX "contact_messages_created_at_idx" ON "contact_messages"("created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "refresh_tokens_token_hash_key" ON "refresh_tokens"("token_hash");

-- CreateIndex
CREATE INDEX "refresh_tokens_family_id_idx" ON "refresh_tokens"("family_id");

-- CreateIndex
CREATE INDEX "refresh_tokens_audience_subject_id_idx" ON "refresh_tokens"("audience", "subject_id");

-- AddForeignKey
ALTER TABLE "books" ADD CONSTRAINT "books_author_id_fkey" FOREIGN KEY ("author_id") REFERENCES "authors"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "books" ADD CONSTRAINT "books_type_id_fkey" FOREIGN KEY ("type_id") REFERENCES "book_types"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "book_copies" ADD CONSTRAINT "book_copies_book_id_fkey" FOREIGN KEY ("book_id") REFERENCES "books"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_book_copy_id_fkey" FOREIGN KEY ("book_copy_id") REFERENCES "book_copies"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "orders" ADD CONSTRAINT "orders_client_id_fkey" FOREIGN KEY ("client_id") REFERENCES "clients"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_order_id_fkey" FOREIGN KEY ("order_id") REFERENCES "orders"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_book_copy_id_fkey" FOREIGN KEY ("book_copy_id") REFERENCES "book_copies"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Hand-written: rules schema.prisma cannot express. Stock can never go below zero, whatever runs concurrently.
ALTER TABLE "book_copies" ADD CONSTRAINT "book_copies_quantity_non_negative" CHECK ("quantity" >= 0);
ALTER TABLE "book_copies" ADD CONSTRAINT "book_copies_price_non_negative" CHECK ("price" >= 0);
ALTER TABLE "book_copies" ADD CONSTRAINT "book_copies_units_sold_non_negative" CHECK ("units_sold" >= 0);
ALTER TABLE "books" ADD CONSTRAINT "books_pages_number_positive" CHECK ("pages_number" IS NULL OR "pages_number" > 0);
ALTER TABLE "books" ADD CONSTRAINT "books_ratings_non_negative" CHECK ("ratings_count" >= 0 AND "ratings_sum" >= 0);
ALTER TABLE "books" ADD CONSTRAINT "books_isbn13_digits" CHECK ("isbn13" IS NULL OR "isbn13" ~ '^[0-9]{13}$');
ALTER TABLE "cart_items" ADD CONSTRAINT "cart_items_quantity_positive" CHECK ("quantity" > 0);
ALTER TABLE "orders" ADD CONSTRAINT "orders_totals_valid" CHECK ("total_quantity" > 0 AND "total_price" >= 0);
ALTER TABLE "orders" ADD CONSTRAINT "orders_status_known"
  CHECK ("status" IN ('pending', 'Processing', 'Shipped', 'delivered', 'success', 'failed', 'cancelled'));
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_quantity_positive" CHECK ("quantity" > 0);
ALTER TABLE "order_items" ADD CONSTRAINT "order_items_unit_price_non_negative" CHECK ("unit_price" >= 0);
ALTER TABLE "clients" ADD CONSTRAINT "clients_account_lower_case" CHECK ("account" = lower("account"));
ALTER TABLE "employees" ADD CONSTRAINT "employees_email_lower_case" CHECK ("email" = lower("email"));
