/** The 12 industry categories of /industries (spec section 2), each with its industries and add-ons. */
export interface IndustryCategory {
  category: string;
  /** lucide-react icon name, resolved by the page. */
  icon:
    | "Briefcase"
    | "Home"
    | "Shield"
    | "Utensils"
    | "HeartPulse"
    | "Sparkles"
    | "ShoppingCart"
    | "Megaphone"
    | "Code"
    | "Scale"
    | "GraduationCap"
    | "Wrench";
  /** Tailwind colour family for the card accent. */
  colour: string;
  industries: string[];
  recommendedAddons: string[];
}

export const INDUSTRY_CATEGORIES: IndustryCategory[] = [
  {
    category: "Coaching & Consulting",
    icon: "Briefcase",
    colour: "violet",
    industries: [
      "Business Coaching",
      "Life Coaching",
      "Executive Coaching",
      "Management Consulting",
      "Career Coaching",
      "Health Coaching",
    ],
    recommendedAddons: ["AI Booking Assistant", "Client Onboarding Bot", "CRM Integration", "Email Follow-up Sequences"],
  },
  {
    category: "Real Estate & Mortgage",
    icon: "Home",
    colour: "emerald",
    industries: [
      "Residential Real Estate",
      "Commercial Real Estate",
      "Mortgage Brokers",
      "Property Management",
      "Real Estate Investors",
    ],
    recommendedAddons: ["Lead Qualification Bot", "Property Matching AI", "Showing Scheduler", "SMS Follow-ups"],
  },
  {
    category: "Insurance",
    icon: "Shield",
    colour: "sky",
    industries: ["Health Insurance", "Auto Insurance", "Life Insurance", "Home Insurance", "Commercial Insurance"],
    recommendedAddons: ["Quote Assistant", "Claims Intake Bot", "Policy Renewal Reminders", "CRM Integration"],
  },
  {
    category: "Restaurants & Hospitality",
    icon: "Utensils",
    colour: "orange",
    industries: ["Restaurants", "Cafes & Bakeries", "Hotels", "Bars & Nightlife", "Catering", "Event Venues", "Food Trucks"],
    recommendedAddons: ["Reservation Bot", "Online Ordering AI", "Review Responder", "Loyalty Program"],
  },
  {
    category: "Health & Wellness",
    icon: "HeartPulse",
    colour: "rose",
    industries: [
      "Medical Practices",
      "Dental Clinics",
      "Chiropractors",
      "Physical Therapy",
      "Mental Health",
      "Fitness Studios",
      "Nutritionists",
    ],
    recommendedAddons: ["Appointment Booking AI", "Patient Intake Forms", "Reminder SMS", "Review Generation"],
  },
  {
    category: "Beauty & Spa",
    icon: "Sparkles",
    colour: "pink",
    industries: ["Hair Salons", "Nail Salons", "Day Spas", "Med Spas", "Barbershops", "Tattoo Studios"],
    recommendedAddons: ["Booking Assistant", "No-show Reducer", "Rebooking Campaigns", "Instagram DM Bot"],
  },
  {
    category: "E-commerce",
    icon: "ShoppingCart",
    colour: "amber",
    industries: ["Online Stores", "Dropshipping", "Subscription Boxes", "Marketplace Sellers", "DTC Brands"],
    recommendedAddons: ["Product Recommendation AI", "Cart Recovery", "Support Chatbot", "Order Tracking Bot"],
  },
  {
    category: "Marketing & Agencies",
    icon: "Megaphone",
    colour: "fuchsia",
    industries: [
      "Digital Marketing Agencies",
      "SEO Agencies",
      "Social Media Agencies",
      "PR Firms",
      "Advertising Agencies",
      "Content Studios",
    ],
    recommendedAddons: ["White-label Chatbots", "Lead Scoring AI", "Report Automation", "Content Generator"],
  },
  {
    category: "SaaS & Software",
    icon: "Code",
    colour: "indigo",
    industries: ["B2B SaaS", "B2C Apps", "Developer Tools", "IT Services", "Managed Service Providers"],
    recommendedAddons: ["In-app Support Bot", "Onboarding Assistant", "Churn Prediction", "Knowledge Base AI"],
  },
  {
    category: "Legal & Financial",
    icon: "Scale",
    colour: "slate",
    industries: ["Law Firms", "Accounting Firms", "Financial Advisors", "Tax Preparers", "Bookkeepers", "Credit Repair"],
    recommendedAddons: ["Client Intake Bot", "Document Automation", "Consultation Scheduler", "Secure Client Portal"],
  },
  {
    category: "Education & Courses",
    icon: "GraduationCap",
    colour: "teal",
    industries: ["Online Course Creators", "Tutoring Centers", "Private Schools", "Training Providers", "Language Schools"],
    recommendedAddons: ["Student Support Bot", "Enrollment Assistant", "Quiz Generator", "Progress Reminders"],
  },
  {
    category: "Local Services",
    icon: "Wrench",
    colour: "lime",
    industries: [
      "Home Services",
      "Plumbing",
      "HVAC",
      "Cleaning Services",
      "Landscaping",
      "Roofing",
      "Auto Repair",
      "Pest Control",
    ],
    recommendedAddons: ["Missed-call Text Back", "Quote Request Bot", "Job Scheduler", "Review Generation"],
  },
];

/** /industries search: case-insensitive substring on the category name or any of its industries. */
export function searchCategories(query: string, categories = INDUSTRY_CATEGORIES): IndustryCategory[] {
  const q = query.trim().toLowerCase();
  if (!q) return categories;
  return categories.filter((c) => c.category.toLowerCase().includes(q) || c.industries.some((i) => i.toLowerCase().includes(q)));
}
