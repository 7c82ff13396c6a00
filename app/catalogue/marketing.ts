/** Display-only marketing content of spec sections 1 and 9. */

export const CLAIMS = {
  businessesAutomated: "10,000+",
  interactionsMonthly: "2.8M+",
  uptime: "99.9%",
  support: "24/7",
  revenueIncrease: "35%",
  timeSavings: "80%",
  tasksAutomated: "80%",
  satisfaction: "95%",
  satisfactionIncrease: "90%",
  delivery: "2-4 weeks",
  deployment: "under 24 hours",
  industriesSupported: "65+ Industries Supported",
} as const;

export interface TrainingSession {
  title: string;
  date: string;
  time: string;
  duration: string;
  attendees: string;
  rating: number;
  topics: string[];
}

export const TRAINING_SESSIONS: TrainingSession[] = [
  {
    title: "AI Automation Fundamentals",
    date: "Every Tuesday",
    time: "2:00 PM EST",
    duration: "45 minutes",
    attendees: "500+ registered",
    rating: 4.9,
    topics: ["What AI apps can automate today", "Choosing your first automation", "Live chatbot build", "Q&A"],
  },
  {
    title: "Advanced AI Strategies for Growth",
    date: "Every Thursday",
    time: "3:00 PM EST",
    duration: "60 minutes",
    attendees: "300+ registered",
    rating: 4.8,
    topics: ["Multi-channel AI funnels", "CRM and booking integrations", "Measuring ROI", "Scaling with AI teams"],
  },
];

export interface Ticker {
  symbol: string;
  price: string;
  change: string;
  up: boolean;
}

/** The banner's 8 hard-coded sample tickers. */
export const SAMPLE_TICKERS: Ticker[] = [
  { symbol: "NVDA", price: "875.28", change: "+2.4%", up: true },
  { symbol: "MSFT", price: "415.50", change: "+1.1%", up: true },
  { symbol: "GOOGL", price: "152.26", change: "-0.3%", up: false },
  { symbol: "META", price: "498.19", change: "+1.8%", up: true },
  { symbol: "AMZN", price: "178.15", change: "+0.9%", up: true },
  { symbol: "AAPL", price: "171.48", change: "-0.5%", up: false },
  { symbol: "AMD", price: "180.49", change: "+3.2%", up: true },
  { symbol: "CRM", price: "301.77", change: "+0.6%", up: true },
];

export const TICKER_TIMING = { visibleMs: 15_000, periodMs: 30_000 } as const;

export const ERAS = [
  { name: "Industrial", years: "1760-1900", text: "Machines multiplied muscle. Businesses that mechanised, led." },
  { name: "Digital", years: "1970-2000", text: "Computers multiplied record-keeping. Businesses that went digital, won." },
  { name: "Mobile", years: "2007-2020", text: "Phones put every customer online. Businesses that went mobile, grew." },
  { name: "AI", years: "Now", text: "AI multiplies every team. The businesses that adopt it now will lead the next decade." },
] as const;
