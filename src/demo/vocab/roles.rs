//! Job functions with their titles, skills and duties: the vocabulary of job postings, people's
//! titles and new roles.

/// LinkedIn-style seniority of a position, as job postings report it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Internship,
    Entry,
    Associate,
    MidSenior,
    Director,
    Executive,
}

impl Level {
    /// The label written in `seniorityLevel`.
    pub fn label(self) -> &'static str {
        match self {
            Level::Internship => "Internship",
            Level::Entry => "Entry level",
            Level::Associate => "Associate",
            Level::MidSenior => "Mid-Senior level",
            Level::Director => "Director",
            Level::Executive => "Executive",
        }
    }
}

/// A prefix of individual-contributor titles ("Senior ") and the level it implies.
pub type Rung = (&'static str, Level, u32);

/// Rungs of technical ladders.
pub const TECH_LADDER: &[Rung] = &[
    ("Junior ", Level::Entry, 10),
    ("", Level::Associate, 38),
    ("Senior ", Level::MidSenior, 36),
    ("Staff ", Level::MidSenior, 8),
    ("Principal ", Level::MidSenior, 4),
    ("Lead ", Level::MidSenior, 4),
];

/// Rungs of business ladders.
pub const BUSINESS_LADDER: &[Rung] = &[
    ("Junior ", Level::Entry, 8),
    ("", Level::Associate, 58),
    ("Senior ", Level::MidSenior, 30),
    ("Lead ", Level::MidSenior, 4),
];

/// Which ladder a function's individual contributors climb.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ladder {
    Tech,
    Business,
}

impl Ladder {
    /// The rungs of this ladder.
    pub fn rungs(self) -> &'static [Rung] {
        match self {
            Ladder::Tech => TECH_LADDER,
            Ladder::Business => BUSINESS_LADDER,
        }
    }
}

/// A job function (department) and its vocabulary.
pub struct Function {
    /// Value of `jobFunction`, and the team named in descriptions.
    pub name: &'static str,
    /// Share of job postings.
    pub hiring_weight: u32,
    /// Share of job changes.
    pub move_weight: u32,
    pub ladder: Ladder,
    pub contributors: &'static [&'static str],
    pub leaders: &'static [(&'static str, Level)],
    pub intern: &'static str,
    pub skills: &'static [&'static str],
    /// Verb phrases completing "you will …".
    pub duties: &'static [&'static str],
}

use Level::{Director as D, Executive as X, MidSenior as M};

#[rustfmt::skip]
pub static FUNCTIONS: &[Function] = &[
    Function { name: "Engineering", hiring_weight: 34, move_weight: 22, ladder: Ladder::Tech,
        contributors: &["Software Engineer", "Backend Engineer", "Frontend Engineer", "Full Stack Engineer", "DevOps Engineer", "Site Reliability Engineer", "Platform Engineer", "Security Engineer", "Mobile Engineer", "QA Engineer", "Machine Learning Engineer", "Infrastructure Engineer"],
        leaders: &[("Engineering Manager", M), ("Director of Engineering", D), ("Head of Engineering", D), ("VP of Engineering", X), ("CTO", X), ("Chief Technology Officer", X)],
        intern: "Software Engineering Intern",
        skills: &["Kubernetes", "Terraform", "Python", "Go", "Rust", "Java", "TypeScript", "React", "Node.js", "PostgreSQL", "AWS", "GCP", "Azure", "Docker", "Kafka", "GraphQL", "SQL", "Redis", "Linux", "gRPC"],
        duties: &["design, build and operate scalable backend services", "own features end to end, from design document to production", "improve the reliability and observability of our platform", "review code and mentor other engineers", "automate our infrastructure and deployment pipelines", "work closely with product and design to ship customer value"] },
    Function { name: "Sales", hiring_weight: 16, move_weight: 18, ladder: Ladder::Business,
        contributors: &["Account Executive", "Enterprise Account Executive", "Sales Development Representative", "Business Development Representative", "Account Manager", "Solutions Engineer", "Sales Engineer", "Partnerships Manager"],
        leaders: &[("Sales Manager", M), ("Director of Sales", D), ("Head of Sales", D), ("VP of Sales", X), ("Chief Revenue Officer", X)],
        intern: "Sales Intern",
        skills: &["Salesforce", "HubSpot", "Outreach", "Gong", "MEDDIC", "SaaS sales", "pipeline management", "negotiation", "enterprise sales", "forecasting"],
        duties: &["own the full sales cycle from discovery to close", "build pipeline through outbound prospecting", "run product demos for senior buyers", "negotiate multi-year enterprise contracts", "keep an accurate forecast in the CRM"] },
    Function { name: "Product Management", hiring_weight: 7, move_weight: 9, ladder: Ladder::Business,
        contributors: &["Product Manager", "Technical Product Manager", "Product Owner", "Growth Product Manager"],
        leaders: &[("Group Product Manager", M), ("Director of Product", D), ("Head of Product", D), ("VP of Product", X), ("Chief Product Officer", X)],
        intern: "Product Management Intern",
        skills: &["roadmapping", "user research", "SQL", "Amplitude", "Jira", "A/B testing", "analytics", "Figma", "discovery", "OKRs"],
        duties: &["define the roadmap for a core product area", "talk to customers every week and turn insights into specs", "prioritize ruthlessly with engineering and design", "measure outcomes and iterate on what ships"] },
    Function { name: "Marketing", hiring_weight: 9, move_weight: 10, ladder: Ladder::Business,
        contributors: &["Marketing Manager", "Product Marketing Manager", "Content Marketing Manager", "Growth Marketing Manager", "Demand Generation Manager", "SEO Specialist", "Brand Manager", "Lifecycle Marketing Manager"],
        leaders: &[("Director of Marketing", D), ("Head of Marketing", D), ("VP of Marketing", X), ("CMO", X), ("Chief Marketing Officer", X)],
        intern: "Marketing Intern",
        skills: &["HubSpot", "Marketo", "Google Analytics", "SEO", "paid social", "content strategy", "copywriting", "attribution", "Salesforce", "webinars"],
        duties: &["plan and run multi-channel campaigns", "own positioning and messaging for new launches", "grow organic traffic and qualified pipeline", "report on campaign performance to leadership"] },
    Function { name: "Data", hiring_weight: 7, move_weight: 5, ladder: Ladder::Tech,
        contributors: &["Data Scientist", "Data Analyst", "Data Engineer", "Analytics Engineer", "Machine Learning Scientist", "Business Intelligence Analyst"],
        leaders: &[("Data Science Manager", M), ("Director of Data Science", D), ("Head of Data", D), ("VP of Data", X), ("Chief Data Officer", X)],
        intern: "Data Science Intern",
        skills: &["Python", "SQL", "Spark", "dbt", "Snowflake", "Airflow", "PyTorch", "TensorFlow", "Tableau", "Looker", "statistics", "BigQuery"],
        duties: &["build and maintain reliable data pipelines", "design experiments and analyze their results", "train and deploy machine learning models", "turn messy data into clear recommendations"] },
    Function { name: "Customer Success", hiring_weight: 7, move_weight: 6, ladder: Ladder::Business,
        contributors: &["Customer Success Manager", "Customer Support Specialist", "Technical Account Manager", "Implementation Consultant", "Onboarding Specialist", "Support Engineer"],
        leaders: &[("Customer Success Team Lead", M), ("Director of Customer Success", D), ("Head of Customer Success", D), ("VP of Customer Success", X)],
        intern: "Customer Success Intern",
        skills: &["Zendesk", "Gainsight", "Intercom", "Salesforce", "onboarding", "renewals", "account management", "SQL", "APIs"],
        duties: &["onboard new customers and drive adoption", "own renewals and expansion for a book of accounts", "be the voice of the customer inside the company", "resolve complex technical issues with empathy"] },
    Function { name: "Design", hiring_weight: 4, move_weight: 3, ladder: Ladder::Business,
        contributors: &["Product Designer", "UX Designer", "UX Researcher", "UI Designer", "Brand Designer", "Content Designer"],
        leaders: &[("Design Lead", M), ("Design Manager", M), ("Head of Design", D), ("VP of Design", X)],
        intern: "Design Intern",
        skills: &["Figma", "prototyping", "user research", "design systems", "accessibility", "interaction design", "usability testing"],
        duties: &["design intuitive flows for complex workflows", "run user research and usability tests", "evolve our design system", "partner with engineers through implementation"] },
    Function { name: "Human Resources", hiring_weight: 4, move_weight: 5, ladder: Ladder::Business,
        contributors: &["Recruiter", "Technical Recruiter", "Talent Acquisition Partner", "HR Business Partner", "People Operations Manager", "HR Generalist"],
        leaders: &[("Recruiting Manager", M), ("Director of Talent", D), ("Head of People", D), ("VP of People", X), ("Chief People Officer", X)],
        intern: "People Operations Intern",
        skills: &["Greenhouse", "Lever", "Workday", "employer branding", "compensation", "employee relations", "HRIS", "sourcing"],
        duties: &["run full-cycle recruiting for key roles", "partner with managers on team growth", "improve onboarding and employee experience", "build fair and scalable people processes"] },
    Function { name: "Finance", hiring_weight: 4, move_weight: 6, ladder: Ladder::Business,
        contributors: &["Financial Analyst", "Accountant", "FP&A Analyst", "Controller", "Revenue Accountant", "Treasury Analyst"],
        leaders: &[("Finance Manager", M), ("Director of Finance", D), ("Head of Finance", D), ("VP of Finance", X), ("CFO", X), ("Chief Financial Officer", X)],
        intern: "Finance Intern",
        skills: &["Excel", "NetSuite", "financial modeling", "GAAP", "IFRS", "budgeting", "SQL", "revenue recognition", "audit"],
        duties: &["own the monthly close and reporting", "build financial models for planning and fundraising", "improve controls as the company scales", "partner with leaders on budgets and forecasts"] },
    Function { name: "Legal", hiring_weight: 2, move_weight: 3, ladder: Ladder::Business,
        contributors: &["Counsel", "Legal Counsel", "Corporate Counsel", "Privacy Counsel", "Paralegal", "Contracts Manager"],
        leaders: &[("Legal Operations Manager", M), ("Head of Legal", D), ("General Counsel", X), ("Chief Legal Officer", X)],
        intern: "Legal Intern",
        skills: &["commercial contracts", "GDPR", "privacy", "employment law", "intellectual property", "compliance", "negotiation"],
        duties: &["draft and negotiate commercial agreements", "advise teams on privacy and data protection", "manage corporate governance and compliance", "build scalable legal processes"] },
    Function { name: "Operations", hiring_weight: 5, move_weight: 7, ladder: Ladder::Business,
        contributors: &["Operations Manager", "Business Operations Analyst", "Program Manager", "Chief of Staff", "Revenue Operations Manager", "Supply Chain Analyst"],
        leaders: &[("Director of Operations", D), ("Head of Operations", D), ("VP of Operations", X), ("COO", X), ("Chief Operating Officer", X)],
        intern: "Operations Intern",
        skills: &["process improvement", "SQL", "Excel", "project management", "Salesforce", "vendor management", "OKRs", "Asana"],
        duties: &["streamline processes across teams", "run planning and operating cadences", "own key cross-functional programs", "build dashboards that keep the business honest"] },
    Function { name: "Growth", hiring_weight: 1, move_weight: 2, ladder: Ladder::Business,
        contributors: &["Growth Manager", "Growth Analyst", "Growth Engineer"],
        leaders: &[("Head of Growth", D), ("VP of Growth", X)],
        intern: "Growth Intern",
        skills: &["experimentation", "SQL", "Amplitude", "paid acquisition", "SEO", "lifecycle marketing", "Python"],
        duties: &["run experiments across the funnel", "find and scale new acquisition channels", "improve activation and retention"] },
    Function { name: "Executive", hiring_weight: 0, move_weight: 4, ladder: Ladder::Business,
        contributors: &["General Manager", "Country Manager"],
        leaders: &[("CEO", X), ("Chief Executive Officer", X), ("Co-Founder", X), ("Founder & CEO", X), ("President", X)],
        intern: "Business Intern",
        skills: &["leadership", "fundraising", "strategy", "P&L ownership", "board management"],
        duties: &["set strategy and lead the executive team", "own the P&L for the region", "build the company culture"] },
];

/// Benefits sentences that close job descriptions.
pub const BENEFITS: &[&str] = &[
    "We offer a competitive salary, meaningful equity and flexible remote work.",
    "Benefits include health insurance, a learning budget and generous paid time off.",
    "You will join a diverse team that values ownership, candor and kindness.",
    "We support hybrid work with a modern office in {city}.",
    "Our hiring process is four conversations over about two weeks.",
    "We are an equal opportunity employer and welcome applicants from all backgrounds.",
];

/// Requirement sentences; `{a}`, `{b}`, `{c}` are skills.
pub const REQUIREMENTS: &[&str] = &[
    "You have {years}+ years of experience with {a}, {b} and {c}.",
    "Strong knowledge of {a} and {b} is required.",
    "Experience with {a} is a plus, and familiarity with {b} helps.",
    "You are comfortable working with {a}, {b} and {c} every day.",
    "Hands-on experience with {a} in a fast-growing company is a strong plus.",
];

/// Opening sentences; `{company}`, `{offering}`, `{industry}`, `{city}` are filled in.
pub const INTROS: &[&str] = &[
    "{company} {offering}.",
    "Join {company}, a fast-growing {industry} company headquartered in {city}.",
    "At {company} we are building the future of {industry}.",
];
