CREATE TABLE "user_settings" (
	"user_id" text PRIMARY KEY NOT NULL,
	"email_updates" boolean DEFAULT true NOT NULL,
	"product_news" boolean DEFAULT false NOT NULL,
	"sms_alerts" boolean DEFAULT false NOT NULL,
	"sidebar_collapsed" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "user_settings" ADD CONSTRAINT "user_settings_user_id_user_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."user"("id") ON DELETE cascade ON UPDATE no action;