CREATE TABLE "device_cookie_epochs" (
	"email_hash" text PRIMARY KEY NOT NULL,
	"epoch" integer DEFAULT 0 NOT NULL
);
