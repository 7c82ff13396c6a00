import { mulberry32, randomInt } from "~/lib/random";
import { INDUSTRIES, type Industry } from "./industries";
import { assignSlugs } from "./slugs";

/**
 * The 181-app catalogue (spec section 3, "App listing"): 34 hand-written apps (ids 1-34) for the
 * first four industries, then 147 generated apps (ids 35-181) for the 17 industries after Retail.
 *
 * Generation is seeded (mulberry32, fixed seed) so every call, every process and every server
 * returns the identical catalogue: prices are charged from these rows, so they must never drift.
 */
export interface CatalogueApp {
  id: number;
  /** Its page's address, /apps/{slug} (assignSlugs: from the name, unique). */
  slug: string;
  name: string;
  description: string;
  industry: string;
  basePrice: number;
  expressPrice: number;
  standardPrice: number;
  monthlyFinancing: string;
  rating: number;
  reviews: number;
  isPopular: boolean;
  features: string[];
  deliveryTime: string;
}

const GENERATED_COUNT = 147;
const MIN_BASE_PRICE = 8000;
const MAX_BASE_PRICE = 33000;
const MIN_REVIEWS = 10;
const MAX_REVIEWS = 109;
const POPULAR_CHANCE = 0.05;
const SEED = 0x181a995;

/** The spec's derived prices: express 1.5x, standard 0.9x, monthly base/20, all rounded down. */
export function derivedPrices(basePrice: number) {
  return {
    basePrice,
    expressPrice: Math.floor(basePrice * 1.5),
    standardPrice: Math.floor(basePrice * 0.9),
    monthlyFinancing: String(Math.floor(basePrice / 20)),
  };
}

// ---- Hand-written apps (ids 1-34) ------------------------------------------------------------

type HandWritten = [
  name: string,
  description: string,
  basePrice: number,
  reviews: number,
  isPopular: boolean,
  deliveryTime: string,
  features: [string, string, string, string],
];

const HAND_WRITTEN: Record<
  "Healthcare & Life Sciences" | "Financial Services" | "Manufacturing & Industrial" | "Retail & E-commerce",
  HandWritten[]
> = {
  "Healthcare & Life Sciences": [
    [
      "MediScheduler AI",
      "Lets patients book, move and cancel appointments around the clock and fills every cancelled slot from the waitlist.",
      18500,
      87,
      true,
      "10-14 days",
      [
        "24/7 online booking across providers",
        "Automated SMS and email reminders",
        "Waitlist backfill for cancellations",
        "EHR calendar sync",
      ],
    ],
    [
      "PatientIntake Pro",
      "Replaces clipboard paperwork with mobile intake forms that capture insurance cards and medical history before the visit.",
      14200,
      52,
      false,
      "7-10 days",
      [
        "Mobile-friendly intake forms",
        "Insurance card photo capture",
        "Consent and e-signature collection",
        "Pre-filled chart export",
      ],
    ],
    [
      "SymptomCheck Assistant",
      "A triage chatbot that asks guided symptom questions and routes each patient to self-care, a telehealth visit or urgent care.",
      24800,
      96,
      true,
      "14-21 days",
      ["Clinically reviewed triage flows", "Urgency scoring with escalation", "Telehealth hand-off", "Multilingual patient chat"],
    ],
    [
      "ClinicFlow Billing Bot",
      "Scrubs claims for coding errors before submission and chases denied claims until they are paid.",
      21300,
      41,
      false,
      "12-16 days",
      ["CPT and ICD-10 code validation", "Denial reason analysis", "Automated resubmission queue", "Payer response tracking"],
    ],
    [
      "TeleHealth Connect AI",
      "Runs virtual visits end to end, from the waiting room and identity check to visit notes and follow-up booking.",
      27600,
      68,
      false,
      "14-18 days",
      ["Secure HD video visits", "Virtual waiting room", "AI-drafted visit summaries", "One-click follow-up booking"],
    ],
    [
      "PharmaTrack Compliance",
      "Monitors batch records, deviations and audit trails so life-sciences teams stay inspection-ready.",
      31200,
      23,
      false,
      "21-28 days",
      ["21 CFR Part 11 audit trails", "Deviation and CAPA workflows", "Batch record review", "Inspection readiness reports"],
    ],
    [
      "CareFollow-Up Agent",
      "Checks in with patients after discharge by text and voice and alerts the care team when answers signal risk.",
      12900,
      35,
      false,
      "7-10 days",
      [
        "Post-discharge check-in calls",
        "Medication adherence prompts",
        "Risk-based care team alerts",
        "Readmission trend dashboard",
      ],
    ],
    [
      "LabResult Notifier",
      "Sends patients plain-language lab results as soon as a clinician releases them and answers common questions.",
      9800,
      19,
      false,
      "5-8 days",
      ["Secure result delivery", "Plain-language explanations", "Clinician release controls", "Read receipts and reminders"],
    ],
    [
      "DentalRecall AI",
      "Keeps hygiene chairs full by recalling overdue patients and offering them the next open slot.",
      11400,
      73,
      false,
      "7-12 days",
      ["Overdue patient detection", "Two-way SMS scheduling", "Family appointment grouping", "Recall revenue reporting"],
    ],
  ],
  "Financial Services": [
    [
      "LoanQualify AI",
      "Pre-qualifies loan applicants in minutes by collecting documents, verifying income and scoring each file.",
      26400,
      91,
      true,
      "14-21 days",
      ["Guided digital application", "Bank statement income verification", "Risk scoring with reasons", "Loan officer hand-off"],
    ],
    [
      "FraudGuard Sentinel",
      "Scores every transaction in real time and holds suspicious payments before the money leaves the account.",
      32500,
      64,
      false,
      "21-28 days",
      ["Real-time transaction scoring", "Device and location fingerprinting", "Case management queue", "Adaptive rules engine"],
    ],
    [
      "WealthAdvisor Bot",
      "Answers client questions about balances, goals and market moves, and books reviews with their advisor.",
      19800,
      47,
      false,
      "10-14 days",
      ["Portfolio Q&A for clients", "Goal progress summaries", "Advisor meeting booking", "Compliance-approved answers"],
    ],
    [
      "InvoiceChaser AI",
      "Follows up on unpaid invoices with polite, escalating reminders and offers clients a one-click payment link.",
      9400,
      102,
      true,
      "5-7 days",
      ["Escalating reminder sequences", "One-click payment links", "Promise-to-pay tracking", "Days-sales-outstanding reports"],
    ],
    [
      "KYC Express",
      "Verifies customer identity with document and selfie checks and screens every applicant against sanctions lists.",
      23700,
      38,
      false,
      "12-18 days",
      ["ID document verification", "Selfie liveness check", "Sanctions and PEP screening", "Periodic re-verification"],
    ],
    [
      "ExpenseSense",
      "Reads receipts, codes expenses to the right account and flags out-of-policy spending before approval.",
      12600,
      56,
      false,
      "7-10 days",
      ["Receipt capture by photo or email", "Automatic GL coding", "Policy violation flags", "Accounting software export"],
    ],
    [
      "CreditCoach Assistant",
      "Guides borrowers through personalised steps to improve their credit score and tracks their progress monthly.",
      15300,
      29,
      false,
      "10-14 days",
      ["Personalised credit action plans", "Monthly score tracking", "Dispute letter drafting", "Progress nudges by SMS"],
    ],
    [
      "TaxPrep Organizer",
      "Collects every client tax document through a checklist portal and chases what is missing before the deadline.",
      10900,
      81,
      false,
      "7-12 days",
      ["Client document checklist portal", "Missing document reminders", "Prior-year comparison", "Preparer workload board"],
    ],
    [
      "PortfolioPulse Reports",
      "Builds branded quarterly performance reports for every client account and explains the results in plain language.",
      17800,
      33,
      false,
      "10-15 days",
      ["Branded quarterly reports", "Benchmark comparisons", "AI-written commentary", "Scheduled client delivery"],
    ],
  ],
  "Manufacturing & Industrial": [
    [
      "PredictMaint AI",
      "Reads machine sensor data to predict failures weeks ahead and schedules maintenance before a line goes down.",
      29800,
      77,
      true,
      "18-24 days",
      ["Vibration and temperature analysis", "Failure probability forecasts", "Work order automation", "Spare parts planning"],
    ],
    [
      "QualityVision Inspector",
      "Inspects parts on the line with computer vision and rejects defects faster than manual checks.",
      30900,
      44,
      false,
      "21-28 days",
      ["Camera-based defect detection", "Automatic reject signalling", "Defect image library", "First-pass yield tracking"],
    ],
    [
      "SupplySync Planner",
      "Balances material orders against the production schedule so the plant never waits on parts or overstocks them.",
      22400,
      58,
      false,
      "14-20 days",
      ["MRP-driven purchase suggestions", "Supplier lead time tracking", "Shortage early warnings", "ERP integration"],
    ],
    [
      "ShiftScheduler Pro",
      "Builds fair, skills-matched shift rosters in minutes and lets workers swap shifts from their phones.",
      13100,
      62,
      false,
      "7-10 days",
      ["Skills and certification matching", "Mobile shift swaps", "Overtime cost controls", "Absence coverage alerts"],
    ],
    [
      "SafetyWatch Compliance",
      "Logs incidents and near misses, assigns corrective actions and keeps OSHA records up to date automatically.",
      16700,
      27,
      false,
      "10-14 days",
      ["Mobile incident reporting", "Corrective action tracking", "OSHA 300 log generation", "Safety training reminders"],
    ],
    [
      "QuoteBuilder CPQ",
      "Turns customer drawings and specs into accurate, margin-checked quotes in minutes instead of days.",
      20500,
      49,
      false,
      "12-16 days",
      ["Spec and drawing intake", "Material and labour costing", "Margin guardrails", "Branded quote PDFs"],
    ],
    [
      "InventoryIQ",
      "Counts stock with barcode scans, predicts reorder points and keeps warehouse and ERP numbers in step.",
      11800,
      95,
      false,
      "7-12 days",
      ["Barcode and RFID scanning", "Dynamic reorder points", "Cycle count scheduling", "Multi-warehouse visibility"],
    ],
    [
      "EnergyOptimizer Plant",
      "Tracks energy use per machine and shifts heavy loads to cheaper tariff windows without hurting output.",
      25200,
      18,
      false,
      "14-21 days",
      ["Per-machine energy metering", "Tariff-aware load scheduling", "Peak demand alerts", "Carbon footprint reporting"],
    ],
  ],
  "Retail & E-commerce": [
    [
      "ShopAssist Chatbot",
      "Answers shopper questions about sizing, stock and shipping around the clock and recommends the right product.",
      8900,
      108,
      true,
      "5-7 days",
      ["24/7 product Q&A", "Size and fit guidance", "Order status lookups", "Shopify and WooCommerce ready"],
    ],
    [
      "CartRescue AI",
      "Wins back abandoned carts with timed email and SMS sequences that adapt the offer to each shopper.",
      12300,
      84,
      false,
      "7-10 days",
      ["Abandoned cart detection", "Personalised email and SMS sequences", "Smart discount rules", "Recovered revenue reports"],
    ],
    [
      "ReviewResponder",
      "Drafts on-brand replies to every product and store review and flags unhappy customers for a personal follow-up.",
      8400,
      39,
      false,
      "5-8 days",
      ["Review monitoring across channels", "On-brand AI reply drafts", "Negative review escalation", "Sentiment trends"],
    ],
    [
      "StockSmart Forecaster",
      "Forecasts demand per product and store from sales history, seasonality and promotions.",
      19600,
      46,
      false,
      "12-16 days",
      ["SKU-level demand forecasts", "Seasonality and promo modelling", "Automated reorder proposals", "Overstock alerts"],
    ],
    [
      "PersonalShopper AI",
      "Builds a style profile for each shopper and serves personalised picks on site, in email and in chat.",
      22900,
      71,
      false,
      "14-18 days",
      ["Shopper style profiles", "Personalised product feeds", "Email recommendation blocks", "Conversion uplift tracking"],
    ],
    [
      "ReturnsDesk Automator",
      "Handles return requests end to end, from label generation to refunds, and offers exchanges to save the sale.",
      10700,
      31,
      false,
      "7-10 days",
      ["Self-service returns portal", "Automatic return labels", "Exchange-first offers", "Return reason analytics"],
    ],
    [
      "LoyaltyLoop Engine",
      "Runs points, tiers and referral rewards that bring customers back and rewards them automatically.",
      15800,
      58,
      false,
      "10-14 days",
      ["Points and tier programme", "Referral rewards", "Birthday and win-back campaigns", "POS and online sync"],
    ],
    [
      "PriceWatch Competitor Monitor",
      "Tracks competitor prices daily and suggests price moves that protect both margin and conversion.",
      17200,
      22,
      false,
      "10-15 days",
      ["Daily competitor price scraping", "Margin-aware price suggestions", "MAP violation alerts", "Price history charts"],
    ],
  ],
};

type UnsluggedApp = Omit<CatalogueApp, "slug">;

function handWrittenApps(): UnsluggedApp[] {
  const out: UnsluggedApp[] = [];
  for (const industry of INDUSTRIES.slice(0, 4) as (keyof typeof HAND_WRITTEN)[]) {
    for (const [name, description, basePrice, reviews, isPopular, deliveryTime, features] of HAND_WRITTEN[industry]) {
      out.push({
        id: out.length + 1,
        name,
        description,
        industry,
        ...derivedPrices(basePrice),
        rating: 5,
        reviews,
        isPopular,
        features: [...features],
        deliveryTime,
      });
    }
  }
  return out;
}

// ---- Generated apps (ids 35-181) -------------------------------------------------------------

interface IndustryKit {
  /** Nine base names, each with the clause that says what that app does. */
  apps: [name: string, does: string][];
  /** Who it is for / what it gets them: the second half of each description. */
  outcomes: string[];
  /** Four of these are drawn for each app. */
  features: string[];
}

const KITS: Record<Exclude<Industry, keyof typeof HAND_WRITTEN>, IndustryKit> = {
  "Real Estate & Property": {
    apps: [
      ["Listing Lead Qualifier", "Qualifies buyer and renter enquiries from every listing portal"],
      ["Showing Scheduler", "Books property viewings around agent and tenant calendars"],
      ["Tenant Screening Assistant", "Screens rental applicants with income, reference and history checks"],
      ["Rent Collection Bot", "Collects rent online and chases late payments automatically"],
      ["Maintenance Request Router", "Triages tenant repair requests and dispatches the right contractor"],
      ["Property Valuation Estimator", "Estimates property values from recent comparable sales"],
      ["Open House Follow-Up", "Follows up with every open house visitor within minutes"],
      ["Lease Renewal Agent", "Reminds tenants of expiring leases and negotiates renewals"],
      ["Listing Description Writer", "Writes compelling listing descriptions from photos and key facts"],
    ],
    outcomes: [
      "so agents spend their time on clients who are ready to move",
      "built for brokerages and property managers",
      "cutting vacancy time and admin hours across your portfolio",
    ],
    features: [
      "MLS and portal lead capture",
      "Calendar-synced viewing slots",
      "SMS and WhatsApp follow-ups",
      "CRM integration with Follow Up Boss and HubSpot",
      "Tenant self-service portal",
      "Automated late-fee reminders",
      "Contractor dispatch workflows",
      "Comparable sales analysis",
      "E-signature for leases",
      "Portfolio performance dashboard",
    ],
  },
  "Legal & Professional Services": {
    apps: [
      ["Client Intake Assistant", "Collects case details from prospective clients and runs conflict checks"],
      ["Contract Review AI", "Flags risky clauses and missing terms in incoming contracts"],
      ["Billable Hours Tracker", "Captures billable time from email, calls and documents"],
      ["Legal Research Copilot", "Finds relevant case law and summarises it in plain language"],
      ["Deadline Docket Manager", "Calculates court deadlines and keeps every matter on schedule"],
      ["Engagement Letter Generator", "Drafts engagement letters and collects signatures"],
      ["Matter Status Bot", "Answers client questions about the status of their matter"],
      ["Document Discovery Sorter", "Classifies discovery documents by relevance and privilege"],
      ["Consultation Booker", "Books paid consultations and takes the fee upfront"],
    ],
    outcomes: [
      "so fee earners spend more hours on billable work",
      "built for law firms, accountants and consultancies",
      "with confidentiality controls your clients expect",
    ],
    features: [
      "Conflict-of-interest checks",
      "Clause risk highlighting",
      "Automatic time capture",
      "Court rules deadline calculator",
      "Secure client portal",
      "E-signature collection",
      "Matter management integration",
      "Privilege tagging",
      "Trust account friendly billing",
      "Audit log of every action",
    ],
  },
  "Education & Training": {
    apps: [
      ["Enrollment Advisor Bot", "Answers prospective student questions and guides them through enrollment"],
      ["Course Recommendation Engine", "Recommends the next course based on each learner's goals and progress"],
      ["AI Tutor Assistant", "Gives learners step-by-step help on assignments around the clock"],
      ["Quiz Generator", "Turns lesson material into graded quizzes and flashcards"],
      ["Attendance Tracker", "Tracks attendance across classes and alerts staff to absence patterns"],
      ["Parent Communication Hub", "Keeps parents informed with automated updates and translated messages"],
      ["Certificate Issuer", "Issues verifiable completion certificates as soon as a course is finished"],
      ["Cohort Engagement Coach", "Nudges inactive learners back into their course with personal messages"],
      ["Grading Assistant", "Drafts rubric-based feedback on essays for teachers to approve"],
    ],
    outcomes: [
      "so instructors spend more time teaching and less on admin",
      "built for schools, academies and online course creators",
      "raising completion rates across every cohort",
    ],
    features: [
      "LMS integration with Canvas and Moodle",
      "Personalised learning paths",
      "Auto-graded quizzes",
      "Progress dashboards for instructors",
      "Multilingual messaging",
      "Verifiable digital certificates",
      "At-risk learner alerts",
      "Rubric-based feedback drafts",
      "Parent and student mobile app",
      "FERPA-friendly data controls",
    ],
  },
  "Hospitality & Tourism": {
    apps: [
      ["Guest Concierge Bot", "Answers guest questions and books extras before and during the stay"],
      ["Direct Booking Assistant", "Converts website visitors into direct bookings without OTA commission"],
      ["Dynamic Rate Optimizer", "Adjusts room rates daily to demand, events and competitor prices"],
      ["Review Reply Manager", "Replies to guest reviews on every platform in your brand voice"],
      ["Housekeeping Dispatcher", "Assigns rooms to housekeepers in the most efficient order"],
      ["Tour Booking Agent", "Sells tours and activities with live availability and instant confirmation"],
      ["Pre-Arrival Upseller", "Offers upgrades and add-ons to guests before they arrive"],
      ["Group Booking Coordinator", "Handles group and event enquiries from quote to rooming list"],
      ["Guest Feedback Analyzer", "Turns surveys and reviews into clear improvement priorities"],
    ],
    outcomes: [
      "so your front desk can focus on guests in front of them",
      "built for hotels, resorts and tour operators",
      "lifting revenue per available room",
    ],
    features: [
      "PMS integration",
      "24/7 multilingual guest chat",
      "Channel manager sync",
      "Upsell offer engine",
      "Housekeeping mobile app",
      "Review monitoring across OTAs",
      "Group quote builder",
      "Live availability calendar",
      "Guest sentiment dashboard",
      "WhatsApp and SMS messaging",
    ],
  },
  "Beauty & Wellness": {
    apps: [
      ["Salon Booking Assistant", "Books appointments with the right stylist and service length"],
      ["No-Show Preventer", "Confirms appointments and takes deposits to cut no-shows"],
      ["Membership Manager", "Runs memberships and packages with automatic renewals"],
      ["Skin Consultation Bot", "Recommends treatments and products from a guided consultation"],
      ["Rebooking Reminder", "Reminds clients when it is time for their next visit"],
      ["Retail Product Advisor", "Recommends aftercare products matched to each client's treatment"],
      ["Spa Package Builder", "Builds and sells spa day packages and gift vouchers online"],
      ["Client Loyalty Rewards", "Rewards repeat visits and referrals with points and perks"],
      ["Wellness Class Scheduler", "Schedules classes, waitlists and instructor cover"],
    ],
    outcomes: [
      "so your chairs and treatment rooms stay full",
      "built for salons, spas and wellness studios",
      "turning first visits into loyal regulars",
    ],
    features: [
      "Online booking with deposits",
      "Stylist and room availability",
      "Automated rebooking reminders",
      "Gift voucher sales",
      "Membership billing",
      "Client preference notes",
      "Instagram booking button",
      "Product recommendation engine",
      "Class waitlists",
      "Loyalty points wallet",
    ],
  },
  "Restaurants & Food Service": {
    apps: [
      ["Table Reservation Bot", "Takes reservations by chat, phone and web and manages the floor plan"],
      ["Online Ordering Assistant", "Takes pickup and delivery orders without marketplace fees"],
      ["Menu Engineering Analyzer", "Shows which dishes make money and suggests menu changes"],
      ["Kitchen Inventory Tracker", "Tracks ingredient stock and predicts what to order"],
      ["Catering Quote Builder", "Turns catering enquiries into priced quotes in minutes"],
      ["Waitlist Texting Service", "Manages the walk-in waitlist and texts guests when tables are ready"],
      ["Staff Rota Planner", "Plans staff rotas around forecast covers and labour budgets"],
      ["Guest Feedback Collector", "Collects feedback after every visit and catches issues early"],
      ["Phone Order Voice Agent", "Answers the phone and takes orders while your team cooks"],
    ],
    outcomes: [
      "so your team can focus on food and hospitality",
      "built for restaurants, cafes and caterers",
      "protecting margins during every service",
    ],
    features: [
      "POS integration with Square and Toast",
      "Commission-free online ordering",
      "Floor plan and table management",
      "Ingredient-level stock tracking",
      "Forecast-based staff rotas",
      "SMS table-ready alerts",
      "Allergen-aware menu answers",
      "Post-visit feedback surveys",
      "Catering deposit collection",
      "Daily sales and margin reports",
    ],
  },
  "Digital Marketing & Advertising": {
    apps: [
      ["Ad Copy Generator", "Writes and tests ad variations for search and social campaigns"],
      ["Campaign Performance Monitor", "Watches campaign spend and results and flags waste early"],
      ["Social Media Scheduler", "Plans, writes and publishes social posts across every channel"],
      ["SEO Content Planner", "Finds keyword gaps and briefs articles that rank"],
      ["Lead Scoring Engine", "Scores inbound leads by fit and intent so sales calls the best first"],
      ["Client Report Automator", "Builds white-label client reports from every ad platform"],
      ["Email Campaign Writer", "Drafts and segments email campaigns with subject line testing"],
      ["Influencer Finder", "Finds and vets influencers whose audience matches your brand"],
      ["Landing Page Optimizer", "Runs A/B tests on landing pages and ships the winners"],
    ],
    outcomes: [
      "so agencies deliver more results with the same team",
      "built for agencies and in-house marketing teams",
      "improving return on ad spend month after month",
    ],
    features: [
      "Google and Meta Ads integration",
      "A/B testing engine",
      "White-label reporting",
      "Brand voice training",
      "Budget pacing alerts",
      "Multi-channel post scheduling",
      "Keyword gap analysis",
      "Lead scoring model",
      "Audience segmentation",
      "UTM and attribution tracking",
    ],
  },
  "Business Consulting": {
    apps: [
      ["Discovery Call Booker", "Qualifies prospects and books discovery calls on your calendar"],
      ["Proposal Generator", "Drafts tailored proposals from discovery call notes"],
      ["Client Onboarding Portal", "Onboards new clients with checklists, documents and kickoff scheduling"],
      ["KPI Dashboard Builder", "Builds live KPI dashboards from your clients' business data"],
      ["Meeting Notes Summarizer", "Turns client meetings into summaries and action items"],
      ["Market Research Assistant", "Researches markets and competitors and writes briefing notes"],
      ["Workshop Survey Analyzer", "Analyses stakeholder surveys and highlights themes"],
      ["Retainer Renewal Agent", "Tracks retainer value delivered and prompts timely renewals"],
      ["Process Mapping Assistant", "Maps client processes and spots automation opportunities"],
    ],
    outcomes: [
      "so consultants spend their days on high-value advice",
      "built for independent consultants and advisory firms",
      "shortening the path from first call to signed engagement",
    ],
    features: [
      "Calendar booking with qualification questions",
      "Proposal templates with pricing tables",
      "Client document vault",
      "Live KPI dashboards",
      "Meeting transcription and summaries",
      "Competitor research briefs",
      "Survey theme analysis",
      "Retainer value tracking",
      "CRM integration",
      "Branded client portal",
    ],
  },
  "Construction & Engineering": {
    apps: [
      ["Bid Estimator AI", "Produces material and labour estimates from plans and specs"],
      ["Project Schedule Tracker", "Tracks every phase against the plan and warns about slippage"],
      ["Site Safety Monitor", "Runs daily safety checklists and logs incidents from the field"],
      ["Subcontractor Coordinator", "Coordinates subcontractor schedules, documents and payments"],
      ["RFI Response Assistant", "Drafts answers to RFIs from drawings and specifications"],
      ["Change Order Manager", "Prices change orders and gets client approval fast"],
      ["Equipment Rental Tracker", "Tracks rented equipment so nothing sits idle on the bill"],
      ["Daily Site Report Bot", "Turns voice notes and photos into daily site reports"],
      ["Permit Application Helper", "Prepares permit applications and tracks their approval"],
    ],
    outcomes: [
      "so project managers stay on top of every site",
      "built for contractors, builders and engineering firms",
      "keeping jobs on schedule and on budget",
    ],
    features: [
      "Plan and takeoff analysis",
      "Gantt schedule tracking",
      "Mobile safety checklists",
      "Subcontractor compliance documents",
      "RFI log with AI drafts",
      "Change order pricing",
      "Equipment utilisation reports",
      "Photo and voice site diaries",
      "Permit status tracking",
      "Job costing integration",
    ],
  },
  "Automotive & Transportation": {
    apps: [
      ["Service Appointment Scheduler", "Books service appointments around bay capacity and technician skills"],
      ["Vehicle Lead Responder", "Responds to car buyer enquiries instantly and books test drives"],
      ["Fleet Maintenance Planner", "Plans fleet servicing from mileage and telematics data"],
      ["Route Optimizer", "Plans delivery routes that cut miles, fuel and late arrivals"],
      ["Parts Inventory Assistant", "Tracks parts stock and orders what the workshop needs next"],
      ["Trade-In Valuation Bot", "Values trade-ins from photos and vehicle history"],
      ["Driver Compliance Tracker", "Tracks driver licences, hours and inspections"],
      ["Repair Estimate Generator", "Builds repair estimates from photos and diagnostic codes"],
      ["Shipment Tracking Notifier", "Keeps customers updated on every shipment automatically"],
    ],
    outcomes: [
      "so your team spends less time on the phone",
      "built for dealerships, workshops and fleet operators",
      "keeping vehicles moving and customers informed",
    ],
    features: [
      "DMS and telematics integration",
      "Online service booking",
      "Test drive scheduling",
      "Route optimisation engine",
      "Parts reorder automation",
      "Trade-in valuation model",
      "Driver document reminders",
      "Photo-based repair estimates",
      "Live shipment notifications",
      "Fuel and mileage reports",
    ],
  },
  "Insurance & Risk Management": {
    apps: [
      ["Quote Comparison Bot", "Gathers applicant details and compares quotes across carriers"],
      ["Claims Intake Assistant", "Takes first notice of loss with photos and guided questions"],
      ["Policy Renewal Reminder", "Reminds policyholders of renewals and offers a review call"],
      ["Underwriting Risk Scorer", "Scores new submissions against your underwriting guidelines"],
      ["Fraud Detection Screener", "Screens claims for fraud signals before they are paid"],
      ["Cross-Sell Advisor", "Spots coverage gaps and suggests relevant policies"],
      ["Certificate Request Handler", "Issues certificates of insurance on request in minutes"],
      ["Agent Lead Distributor", "Routes new leads to the best available agent"],
      ["Risk Assessment Reporter", "Prepares client risk assessments and loss-control reports"],
    ],
    outcomes: [
      "so agents and adjusters spend time where it counts",
      "built for agencies, brokers and carriers",
      "improving retention across your book of business",
    ],
    features: [
      "Multi-carrier quoting",
      "Photo-based claims intake",
      "Renewal reminder sequences",
      "Underwriting rules engine",
      "Fraud signal scoring",
      "Coverage gap analysis",
      "Certificate of insurance generation",
      "Round-robin lead routing",
      "Agency management system sync",
      "Compliance-ready audit trail",
    ],
  },
  "Technology & Software": {
    apps: [
      ["Support Ticket Triage", "Categorises and routes support tickets and drafts first replies"],
      ["Product Onboarding Guide", "Guides new users to their first success inside your product"],
      ["Churn Risk Predictor", "Predicts which accounts are at risk and alerts customer success"],
      ["Release Notes Writer", "Writes release notes and changelogs from merged work"],
      ["Trial Conversion Coach", "Nudges trial users toward the features that make them buy"],
      ["Knowledge Base Assistant", "Answers customer questions from your documentation"],
      ["Bug Report Analyzer", "Deduplicates bug reports and links them to known issues"],
      ["Usage Analytics Reporter", "Summarises product usage for every account each week"],
      ["Demo Booking Agent", "Qualifies inbound leads and books product demos"],
    ],
    outcomes: [
      "so your team can focus on building the product",
      "built for SaaS companies and software teams",
      "growing activation and net revenue retention",
    ],
    features: [
      "Help desk integration with Zendesk and Intercom",
      "In-app guided tours",
      "Churn risk scoring",
      "Git and issue tracker integration",
      "Trial behaviour analytics",
      "Docs-grounded AI answers",
      "Duplicate bug detection",
      "Weekly account health reports",
      "Demo calendar booking",
      "Slack alerts",
    ],
  },
  "Energy & Utilities": {
    apps: [
      ["Outage Notification Bot", "Tells customers about outages and restoration times proactively"],
      ["Meter Data Analyzer", "Finds anomalies and leaks in smart meter data"],
      ["Billing Inquiry Assistant", "Explains bills and sets up payment plans for customers"],
      ["Solar Lead Qualifier", "Qualifies solar leads with roof and usage checks"],
      ["Field Crew Dispatcher", "Dispatches field crews by skill, location and priority"],
      ["Energy Savings Advisor", "Gives households and businesses personalised savings tips"],
      ["Asset Inspection Tracker", "Schedules and records inspections of network assets"],
      ["Demand Forecast Engine", "Forecasts demand from weather and historical load"],
      ["Regulatory Report Builder", "Compiles regulatory reports from operational data"],
    ],
    outcomes: [
      "so control rooms and call centres keep up at peak times",
      "built for utilities, energy retailers and installers",
      "reducing call volumes and truck rolls",
    ],
    features: [
      "Outage map integration",
      "Smart meter data ingestion",
      "Payment plan automation",
      "Roof and usage qualification",
      "Crew scheduling by skill",
      "Personalised savings reports",
      "Asset inspection app",
      "Weather-driven forecasting",
      "Regulatory report templates",
      "SMS and IVR notifications",
    ],
  },
  "Government & Public Sector": {
    apps: [
      ["Citizen Services Assistant", "Answers resident questions about services, permits and deadlines"],
      ["Permit Tracking Portal", "Lets applicants track permits and upload missing documents"],
      ["311 Request Router", "Routes service requests to the right department automatically"],
      ["Public Records Request Manager", "Tracks records requests and statutory deadlines"],
      ["Benefits Eligibility Checker", "Screens residents for the benefits they may qualify for"],
      ["Meeting Minutes Generator", "Drafts council meeting minutes from recordings"],
      ["Grant Application Assistant", "Helps teams prepare and track grant applications"],
      ["Emergency Alert Broadcaster", "Sends targeted emergency alerts by text, email and voice"],
      ["Procurement Bid Evaluator", "Scores procurement bids against published criteria"],
    ],
    outcomes: [
      "so staff can focus on residents with complex needs",
      "built for councils, agencies and public bodies",
      "with accessibility and transparency built in",
    ],
    features: [
      "Multilingual resident chat",
      "Permit status lookups",
      "Department routing rules",
      "Statutory deadline tracking",
      "Eligibility screening questions",
      "Meeting transcription",
      "Grant deadline calendar",
      "Geo-targeted alerts",
      "Bid scoring matrices",
      "WCAG-accessible interfaces",
    ],
  },
  "Media & Entertainment": {
    apps: [
      ["Content Tagging Engine", "Tags video, audio and articles with topics, people and places"],
      ["Audience Insights Reporter", "Reports on what your audience watches, reads and shares"],
      ["Ticket Sales Assistant", "Sells tickets and answers event questions around the clock"],
      ["Subtitle Generator", "Generates accurate subtitles and translations for video"],
      ["Podcast Show Notes Writer", "Writes show notes, chapters and social clips from episodes"],
      ["Fan Engagement Bot", "Engages fans with quizzes, updates and exclusive offers"],
      ["Rights Clearance Tracker", "Tracks licences, rights windows and renewals"],
      ["Ad Inventory Optimizer", "Maximises yield on ad inventory across channels"],
      ["Newsletter Curator", "Curates personalised newsletters from your latest content"],
    ],
    outcomes: [
      "so creative teams spend more time creating",
      "built for publishers, studios and event promoters",
      "growing audiences and revenue per fan",
    ],
    features: [
      "Automatic content tagging",
      "Audience analytics dashboards",
      "Ticketing platform integration",
      "Subtitles in 40+ languages",
      "Episode chapter generation",
      "Fan quizzes and polls",
      "Rights window calendar",
      "Ad yield optimisation",
      "Personalised newsletter blocks",
      "Social clip creation",
    ],
  },
  "Agriculture & Supply Chain": {
    apps: [
      ["Crop Yield Forecaster", "Forecasts yields from weather, soil and satellite data"],
      ["Farm Supply Orderer", "Orders seed, feed and fertiliser before stocks run low"],
      ["Cold Chain Monitor", "Monitors temperature across storage and transport in real time"],
      ["Shipment ETA Predictor", "Predicts shipment arrival times and warns about delays"],
      ["Supplier Scorecard Builder", "Scores suppliers on quality, cost and on-time delivery"],
      ["Warehouse Slotting Optimizer", "Places stock where pickers reach it fastest"],
      ["Livestock Health Tracker", "Tracks herd health and flags animals that need attention"],
      ["Traceability Recorder", "Records lot-level traceability from field to shelf"],
      ["Freight Quote Assistant", "Compares freight quotes and books the best carrier"],
    ],
    outcomes: [
      "so growers and logistics teams act before problems spread",
      "built for farms, distributors and logistics operators",
      "cutting waste from field to customer",
    ],
    features: [
      "Satellite and weather data",
      "IoT sensor integration",
      "Automated purchase orders",
      "Real-time temperature alerts",
      "ETA prediction model",
      "Supplier scorecards",
      "Pick path optimisation",
      "Herd health records",
      "Lot traceability reports",
      "Carrier rate comparison",
    ],
  },
  Telecommunications: {
    apps: [
      ["Customer Support Voice Agent", "Resolves common support calls without a hold queue"],
      ["Plan Upgrade Advisor", "Recommends better-fitting plans from each customer's usage"],
      ["Network Fault Detector", "Detects network faults from alarms and opens tickets automatically"],
      ["Churn Prevention Agent", "Spots customers likely to leave and makes a retention offer"],
      ["Installation Scheduler", "Books installation appointments and keeps customers updated"],
      ["Billing Dispute Resolver", "Investigates billing disputes and proposes resolutions"],
      ["Number Porting Assistant", "Guides customers through number porting step by step"],
      ["Coverage Check Bot", "Answers coverage questions for any address instantly"],
      ["Field Technician Copilot", "Gives technicians step-by-step fixes on site"],
    ],
    outcomes: [
      "so your contact centre handles more with less",
      "built for carriers, ISPs and telecom resellers",
      "lowering churn and cost to serve",
    ],
    features: [
      "Voice and chat self-service",
      "Usage-based plan recommendations",
      "Network alarm correlation",
      "Churn propensity scoring",
      "Installation slot booking",
      "Billing system integration",
      "Porting status tracking",
      "Address-level coverage lookup",
      "Technician mobile guides",
      "OSS/BSS integration",
    ],
  },
};

/** The 17 industries after Retail & E-commerce, in catalogue order. */
const GENERATED_INDUSTRIES = INDUSTRIES.slice(4) as readonly (keyof typeof KITS)[];

/** How many generated apps each industry gets: 147 = 11 x 9 + 6 x 8. */
function generatedCount(industryIndex: number): number {
  const perIndustry = Math.ceil(GENERATED_COUNT / GENERATED_INDUSTRIES.length);
  const short = perIndustry * GENERATED_INDUSTRIES.length - GENERATED_COUNT;
  return industryIndex < GENERATED_INDUSTRIES.length - short ? perIndustry : perIndustry - 1;
}

function pickDistinct<T>(random: () => number, pool: readonly T[], n: number): T[] {
  const copy = [...pool];
  const out: T[] = [];
  for (let i = 0; i < n && copy.length > 0; i++) out.push(copy.splice(Math.floor(random() * copy.length), 1)[0]!);
  return out;
}

function generatedApps(firstId: number): UnsluggedApp[] {
  const random = mulberry32(SEED);
  const out: UnsluggedApp[] = [];
  GENERATED_INDUSTRIES.forEach((industry, industryIndex) => {
    const kit = KITS[industry];
    for (let k = 0; k < generatedCount(industryIndex); k++) {
      const [baseName, does] = kit.apps[k]!;
      const basePrice = randomInt(random, MIN_BASE_PRICE, MAX_BASE_PRICE);
      const reviews = randomInt(random, MIN_REVIEWS, MAX_REVIEWS);
      const isPopular = random() < POPULAR_CHANCE;
      const from = randomInt(random, 5, 14);
      const to = from + randomInt(random, 3, 7);
      const outcome = kit.outcomes[Math.floor(random() * kit.outcomes.length)]!;
      out.push({
        id: firstId + out.length,
        // The running number counts the industry's generated apps: 'Crop Yield Forecaster 1', ...
        name: `${baseName} ${k + 1}`,
        description: `${does}, ${outcome}.`,
        industry,
        ...derivedPrices(basePrice),
        rating: 5,
        reviews,
        isPopular,
        features: pickDistinct(random, kit.features, 4),
        deliveryTime: `${from}-${to} days`,
      });
    }
  });
  return out;
}

/** The whole catalogue, ordered by id. Pure: every call returns an equal, fresh array. */
export function allApps(): CatalogueApp[] {
  const hand = handWrittenApps();
  const apps = [...hand, ...generatedApps(hand.length + 1)];
  const slugs = assignSlugs(apps);
  return apps.map((app) => ({ ...app, slug: slugs.get(app.id)! }));
}
