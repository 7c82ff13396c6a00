import type { AddonCategory } from "./plans";

/** One add-on of the marketplace (spec section 3 addon_library). Prices in cents per month. */
export interface Addon {
  id: string;
  name: string;
  description: string;
  category: AddonCategory;
  monthlyPrice: number;
  features: string[];
  isActive: boolean;
}

/** An add-on as the marketplace lists it (read from addon_library; cents per month). */
export type AddonListing = Omit<Addon, "isActive" | "category"> & { category: string };

/** The add-on minimum of the cart (spec section 4 'Cart': met at 3 or more). */
export const ADDON_CART_MINIMUM = 3;

const addon = (
  id: string,
  category: AddonCategory,
  name: string,
  dollars: number,
  description: string,
  features: string[],
  isActive = true,
): Addon => ({ id, name, description, category, monthlyPrice: dollars * 100, features, isActive });

/** The seeded marketplace (upserted at boot by app/server/catalogue/addons.server.ts). Ids never change. */
export const ADDONS: Addon[] = [
  // Marketing
  addon(
    "email-campaign-builder",
    "Marketing",
    "Email Campaign Builder",
    49,
    "Design, schedule and send AI-written email campaigns.",
    [
      "Drag-and-drop email editor",
      "AI subject line suggestions",
      "Audience segmentation",
      "Scheduled sends",
      "Open and click tracking",
    ],
  ),
  addon(
    "social-media-autopilot",
    "Marketing",
    "Social Media Autopilot",
    79,
    "Plan and auto-post content across your social channels.",
    [
      "Facebook, Instagram and LinkedIn posting",
      "AI caption writer",
      "Content calendar",
      "Best-time-to-post scheduling",
      "Hashtag suggestions",
      "Engagement reports",
    ],
  ),
  addon("seo-optimizer", "Marketing", "SEO Optimizer", 59, "Find keywords and fix on-page SEO issues automatically.", [
    "Keyword research",
    "On-page audit",
    "Meta tag generator",
    "Rank tracking for 100 keywords",
  ]),
  // Analytics
  addon("advanced-analytics", "Analytics", "Advanced Analytics", 99, "Deep dashboards on every conversation, lead and sale.", [
    "Custom dashboards",
    "Funnel analysis",
    "Cohort retention charts",
    "CSV and PDF exports",
    "Scheduled email reports",
  ]),
  addon("customer-insights", "Analytics", "Customer Insights", 79, "Understand what customers ask for and how they feel.", [
    "Sentiment analysis",
    "Topic clustering",
    "Customer journey maps",
    "Churn risk alerts",
  ]),
  addon("revenue-attribution", "Analytics", "Revenue Attribution", 129, "See which channels and automations bring in revenue.", [
    "Multi-touch attribution",
    "Channel ROI reports",
    "Ad platform connectors",
    "UTM tracking",
    "Revenue forecasting",
  ]),
  // Sales
  addon("lead-scoring-ai", "Sales", "Lead Scoring AI", 89, "Rank every lead by how likely it is to buy.", [
    "Predictive lead scores",
    "Hot lead alerts",
    "CRM field sync",
    "Score explanations",
    "Weekly model retraining",
  ]),
  addon("crm-sync-pro", "Sales", "CRM Sync Pro", 69, "Two-way sync of contacts and deals with your CRM.", [
    "HubSpot, Salesforce and Pipedrive",
    "Two-way contact sync",
    "Deal stage updates",
    "Duplicate detection",
  ]),
  addon("sales-call-assistant", "Sales", "Sales Call Assistant", 149, "Transcribes calls and writes the follow-up for you.", [
    "Call transcription",
    "AI call summaries",
    "Follow-up email drafts",
    "Objection tracking",
    "Talk-time analytics",
    "CRM notes sync",
  ]),
  // AI
  addon("custom-ai-training", "AI", "Custom AI Training", 299, "Train your assistants on your own documents and tone.", [
    "Upload PDFs, docs and web pages",
    "Brand voice tuning",
    "Answer accuracy testing",
    "Versioned knowledge bases",
    "Monthly retraining",
    "Priority model access",
  ]),
  addon("ai-voice-agent", "AI", "AI Voice Agent", 199, "A natural-sounding phone agent that answers and books calls.", [
    "Inbound call answering",
    "Appointment booking by phone",
    "Call transfer to staff",
    "Call recordings and transcripts",
    "Local phone number included",
  ]),
  addon("multilingual-ai", "AI", "Multilingual AI", 79, "Let your assistants talk to customers in 30+ languages.", [
    "Automatic language detection",
    "30+ languages",
    "Translated knowledge base",
    "Per-language tone settings",
  ]),
  // Support
  addon("live-chat-handoff", "Support", "Live Chat Handoff", 49, "Hand conversations from the bot to a human in one click.", [
    "Seamless bot-to-human handoff",
    "Shared team inbox",
    "Canned responses",
    "Mobile notifications",
  ]),
  addon(
    "helpdesk-integration",
    "Support",
    "Helpdesk Integration",
    59,
    "Create and update tickets in your helpdesk automatically.",
    [
      "Zendesk, Freshdesk and Help Scout",
      "Automatic ticket creation",
      "Ticket status sync",
      "Conversation history attached",
      "SLA tagging",
    ],
  ),
  addon("priority-support", "Support", "Priority Support", 149, "A faster line to our experts when you need help.", [
    "1-hour response time",
    "Dedicated support engineer",
    "Monthly health check",
    "Phone and video support",
  ]),
  // Infrastructure
  addon("dedicated-hosting", "Infrastructure", "Dedicated Hosting", 249, "Run your apps on infrastructure reserved for you.", [
    "Isolated compute",
    "99.95% uptime SLA",
    "Daily backups",
    "Choice of region",
    "DDoS protection",
  ]),
  addon("custom-domain-ssl", "Infrastructure", "Custom Domain & SSL", 19, "Serve your apps and widgets from your own domain.", [
    "Custom domains",
    "Automatic SSL certificates",
    "DNS setup guide",
    "Branded chat widget URL",
  ]),
  addon("api-access", "Infrastructure", "API Access", 99, "Connect your own systems through our REST API and webhooks.", [
    "REST API keys",
    "Webhooks for every event",
    "10,000 API calls per day",
    "Sandbox environment",
    "API usage dashboard",
  ]),
  // Automation
  addon("workflow-builder", "Automation", "Workflow Builder", 89, "Build multi-step automations without code.", [
    "Visual workflow editor",
    "Triggers, conditions and delays",
    "500+ app connectors",
    "Error alerts and retries",
    "Workflow templates",
  ]),
  addon(
    "appointment-scheduler",
    "Automation",
    "Appointment Scheduler",
    39,
    "Let customers book, reschedule and cancel on their own.",
    ["Calendar sync (Google, Outlook)", "Automatic reminders by SMS and email", "Buffer times and working hours", "Booking page"],
  ),
  addon("document-processor", "Automation", "Document Processor", 119, "Extract data from invoices, forms and receipts.", [
    "OCR for scans and photos",
    "Invoice and receipt extraction",
    "Form field mapping",
    "Export to spreadsheets",
    "Human review queue",
  ]),
  // Content
  addon("ai-content-writer", "Content", "AI Content Writer", 49, "Blog posts, product pages and newsletters in your voice.", [
    "Long-form blog posts",
    "Product descriptions",
    "Newsletter drafts",
    "Plagiarism check",
    "Brand voice presets",
  ]),
  addon("video-script-generator", "Content", "Video Script Generator", 39, "Scripts and storyboards for short-form video.", [
    "Short-form video scripts",
    "Hook and call-to-action ideas",
    "Storyboard outlines",
    "Caption files",
  ]),
  addon(
    "image-studio",
    "Content",
    "Image Studio",
    69,
    "Generate and edit on-brand images for ads and posts.",
    ["AI image generation", "Background removal", "Brand colour presets", "Ad size templates", "Commercial use licence"],
    false,
  ),
  // Operations
  addon("inventory-tracker", "Operations", "Inventory Tracker", 59, "Track stock and reorder before you run out.", [
    "Real-time stock levels",
    "Low-stock alerts",
    "Purchase order drafts",
    "Multi-location support",
  ]),
  addon("team-task-manager", "Operations", "Team Task Manager", 29, "Turn conversations into tasks your team can act on.", [
    "Tasks from chats and emails",
    "Assignments and due dates",
    "Slack and Teams notifications",
    "Team workload view",
  ]),
  addon(
    "compliance-monitor",
    "Operations",
    "Compliance Monitor",
    179,
    "Keep conversations and data within GDPR and HIPAA rules.",
    ["PII detection and redaction", "Audit logs", "Data retention policies", "Consent tracking", "Compliance reports"],
  ),
  // Finance
  addon("invoice-automation", "Finance", "Invoice Automation", 49, "Send invoices and chase late payments automatically.", [
    "Recurring invoices",
    "Payment reminders",
    "Online card payments",
    "QuickBooks and Xero sync",
  ]),
  addon("expense-tracker", "Finance", "Expense Tracker", 29, "Snap receipts and categorise expenses automatically.", [
    "Receipt capture",
    "Automatic categories",
    "Mileage tracking",
    "Monthly expense reports",
  ]),
  addon("financial-forecasting", "Finance", "Financial Forecasting", 159, "Cash-flow forecasts built from your real numbers.", [
    "13-week cash-flow forecast",
    "Scenario planning",
    "Accounting software sync",
    "Budget vs actual reports",
    "Runway alerts",
  ]),
  // Mobile
  addon("mobile-app-builder", "Mobile", "Mobile App Builder", 199, "Publish your assistant as a branded iOS and Android app.", [
    "iOS and Android apps",
    "Your logo and colours",
    "App store submission help",
    "Over-the-air updates",
    "In-app chat",
    "Usage analytics",
  ]),
  addon("push-notifications", "Mobile", "Push Notifications", 29, "Reach customers with targeted push messages.", [
    "Targeted push campaigns",
    "Scheduled sends",
    "Rich media notifications",
    "Delivery and open stats",
  ]),
  addon("sms-marketing", "Mobile", "SMS Marketing", 59, "Two-way SMS campaigns with AI replies.", [
    "Bulk SMS campaigns",
    "Two-way AI replies",
    "Opt-in and opt-out handling",
    "Link click tracking",
    "Local and toll-free numbers",
  ]),
  addon(
    "wearable-alerts",
    "Mobile",
    "Wearable Alerts",
    19,
    "Send urgent alerts to smartwatches.",
    ["Apple Watch and Wear OS", "Priority alert rules", "Quiet hours", "Alert acknowledgements"],
    false,
  ),
];

export interface AddonFilters {
  q: string;
  /** 'All' or one of ADDON_CATEGORIES. */
  category: string;
}

/** Case-insensitive search on name, description, category and features, then the category filter. */
export function filterAddons<T extends { name: string; description: string; category: string; features: readonly string[] }>(
  addons: readonly T[],
  { q, category }: AddonFilters,
): T[] {
  const words = q.trim().toLowerCase().split(/\s+/).filter(Boolean);
  return addons.filter((a) => {
    if (category !== "All" && a.category !== category) return false;
    if (words.length === 0) return true;
    const text = [a.name, a.description, a.category, ...a.features].join(" ").toLowerCase();
    return words.every((w) => text.includes(w));
  });
}
