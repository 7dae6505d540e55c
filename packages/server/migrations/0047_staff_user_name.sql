-- Staff users get a display name, shown in the console's user list; users made before keep an
-- empty name (the list then shows their email only).
ALTER TABLE "staff_users" ADD COLUMN "name" text DEFAULT '' NOT NULL;
