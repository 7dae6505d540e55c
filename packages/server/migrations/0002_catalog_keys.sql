CREATE TABLE "catalog_keys" (
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"record_id" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "catalog_keys_kind_key_pk" PRIMARY KEY("kind","key")
);
