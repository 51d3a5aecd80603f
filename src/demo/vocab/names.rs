//! Words that names are made of: people, companies, investors and news outlets.

#[rustfmt::skip]
pub const FIRST_NAMES: &[&str] = &[
    "James", "Mary", "Robert", "Patricia", "John", "Jennifer", "Michael", "Linda", "David", "Elizabeth",
    "William", "Barbara", "Richard", "Susan", "Joseph", "Jessica", "Thomas", "Sarah", "Daniel", "Karen",
    "Matthew", "Emily", "Anthony", "Michelle", "Mark", "Amanda", "Steven", "Melissa", "Andrew", "Laura",
    "Joshua", "Rebecca", "Kevin", "Rachel", "Brian", "Hannah", "Ryan", "Olivia", "Jacob", "Emma",
    "Ethan", "Sophia", "Noah", "Ava", "Liam", "Mia", "Lucas", "Chloe", "Alex", "Zoë",
    "Priya", "Arjun", "Ananya", "Rahul", "Aisha", "Vikram", "Neha", "Rohan", "Kavya", "Sanjay",
    "Wei", "Mei", "Jun", "Yuki", "Hiroshi", "Sakura", "Min-jun", "Ji-woo", "Li", "Chen",
    "Lukas", "Lena", "Felix", "Anna", "Jonas", "Marie", "Maximilian", "Sophie", "Niklas", "Clara",
    "Louis", "Camille", "Hugo", "Léa", "Jules", "Chloé", "Mathieu", "Inès", "Pierre", "Manon",
    "Oliver", "Charlotte", "Harry", "Amelia", "George", "Isla", "Jack", "Freya", "Oscar", "Poppy",
    "Mateo", "Lucía", "Diego", "Valentina", "Santiago", "Camila", "Gabriel", "Isabela", "Rafael", "Mariana",
    "Noam", "Yael", "Omer", "Tamar", "Ari", "Maya", "Erik", "Astrid", "Lars", "Ingrid",
    "Mohammed", "Fatima", "Omar", "Layla", "Youssef", "Amira", "Chidi", "Ngozi", "Kwame", "Amara",
    "Sean", "Aoife", "Connor", "Niamh", "Marco", "Giulia", "Luca", "Francesca", "Pablo", "Elena",
];

#[rustfmt::skip]
pub const LAST_NAMES: &[&str] = &[
    "Smith", "Johnson", "Williams", "Brown", "Jones", "Garcia", "Miller", "Davis", "Rodriguez", "Martinez",
    "Hernandez", "Lopez", "Wilson", "Anderson", "Thomas", "Taylor", "Moore", "Jackson", "Martin", "Lee",
    "Thompson", "White", "Harris", "Clark", "Lewis", "Robinson", "Walker", "Young", "Allen", "King",
    "Wright", "Scott", "Green", "Baker", "Adams", "Nelson", "Hill", "Campbell", "Mitchell", "Roberts",
    "Carter", "Phillips", "Evans", "Turner", "Parker", "Collins", "Edwards", "Stewart", "Morris", "Murphy",
    "Patel", "Sharma", "Gupta", "Singh", "Kumar", "Reddy", "Iyer", "Nair", "Mehta", "Desai",
    "Wang", "Zhang", "Liu", "Chen", "Yang", "Huang", "Zhao", "Wu", "Tanaka", "Suzuki",
    "Sato", "Watanabe", "Kim", "Park", "Choi", "Nguyen", "Tran", "Pham", "Müller", "Schmidt",
    "Schneider", "Fischer", "Weber", "Meyer", "Wagner", "Becker", "Hoffmann", "Schulz", "Dubois", "Moreau",
    "Laurent", "Lefèvre", "Bernard", "Girard", "Rossi", "Russo", "Ferrari", "Bianchi", "Romano", "Esposito",
    "Fernández", "González", "Sánchez", "Pérez", "Silva", "Santos", "Oliveira", "Costa", "Pereira", "Almeida",
    "Cohen", "Levi", "Mizrahi", "Friedman", "Andersson", "Johansson", "Lindqvist", "Nielsen", "Hansen", "Larsen",
    "O'Brien", "Kelly", "Byrne", "Walsh", "Okafor", "Adeyemi", "Mensah", "Haddad", "Khan", "Hussain",
    "Novak", "Kowalski", "Nowak", "Horvat", "Ivanova", "Petrov", "Jansen", "de Vries", "van Dijk", "Bakker",
];

/// First halves of fused company names ("Nova" + "stack").
#[rustfmt::skip]
pub const NAME_HEADS: &[&str] = &[
    "Nova", "Cloud", "Data", "Quantum", "Bright", "Swift", "Hyper", "Open", "Deep", "Clear",
    "True", "Next", "Smart", "Prime", "Flex", "Zen", "Astra", "Lumen", "Vertex", "Pixel",
    "Signal", "Orbit", "Vector", "Atlas", "Echo", "Nimbus", "Cobalt", "Helix", "Kinetic", "Pulse",
    "Sonic", "Terra", "Aero", "Neuro", "Fin", "Ledger", "Trust", "Shield", "Spark", "Wave",
    "Loop", "Grid", "Path", "Bolt", "Forge", "Hive", "Iron", "Jet", "Kite", "Mint",
    "Nest", "Peak", "Quill", "Sky", "Tide", "Volt", "Yield", "Arc", "Beam", "Core",
    "Dash", "Ember", "Flux", "Glow", "Halo", "Ion", "Jade", "Lark", "Mesa", "North",
    "Onyx", "Pine", "Quartz", "Ridge", "Sage", "Thread", "Unity", "Vale", "Zephyr", "Alto",
    "Brisk", "Civic", "Delta", "Evergreen", "Fathom", "Granite", "Harbor", "Indigo", "Juniper", "Keystone",
    "Lattice", "Meridian", "Nimble", "Optic", "Polar", "Radiant", "Solstice", "Tandem", "Umber", "Verdant",
];

/// Second halves of fused company names.
#[rustfmt::skip]
pub const NAME_ENDS: &[&str] = &[
    "ly", "io", "ify", "hub", "base", "stack", "labs", "works", "flow", "sense",
    "mind", "gen", "logic", "wise", "bit", "scale", "shift", "point", "space", "lane",
    "craft", "cast", "dock", "mark", "port", "sync", "verse", "way", "yard", "zone",
    "line", "ware", "tek", "scope", "pilot", "ray", "rise", "root", "field", "gate",
    "view", "bridge", "frame", "link", "loop", "metrics", "nova", "pay", "desk", "lytics",
];

/// Adjectives of two-word company names ("Blue Harbor").
#[rustfmt::skip]
pub const NAME_ADJECTIVES: &[&str] = &[
    "Blue", "Red", "Silver", "Golden", "Green", "Bright", "Quiet", "Bold", "Clever", "Rapid",
    "Noble", "Brave", "Lucky", "Happy", "Little", "Grand", "Wild", "Open", "True", "Clear",
    "Northern", "Southern", "Eastern", "Western", "Hidden", "Urban", "Modern", "Simple", "Honest", "Steady",
    "Crimson", "Amber", "Scarlet", "Ivory", "Copper", "Iron", "Crystal", "Solar", "Lunar", "Stellar",
    "First", "Second", "Silent", "Swift", "Calm", "Vivid", "Gentle", "Fierce", "Humble", "Electric",
];

/// Nouns of two-word company names.
#[rustfmt::skip]
pub const NAME_NOUNS: &[&str] = &[
    "Harbor", "River", "Fox", "Owl", "Falcon", "Summit", "Bridge", "Lantern", "Compass", "Anchor",
    "Beacon", "Meadow", "Canyon", "Forest", "Harvest", "Orchard", "Mountain", "Island", "Garden", "Rocket",
    "Comet", "Planet", "Otter", "Bear", "Wolf", "Heron", "Raven", "Maple", "Cedar", "Birch",
    "Arrow", "Atlas", "Bay", "Cloud", "Delta", "Engine", "Field", "Gate", "Hawk", "Kettle",
    "Lake", "Mill", "Oak", "Pine", "Quarry", "Reef", "Stone", "Tower", "Valley", "Willow",
    "Yard", "Zebra", "Sparrow", "Lighthouse", "Signal", "Circuit", "Current", "Horizon", "Prairie", "Tundra",
];

/// Words that end company names of any kind.
pub const NAME_TRAILERS: &[&str] = &[
    "Labs",
    "Systems",
    "Technologies",
    "Group",
    "Studio",
    "Networks",
    "Works",
    "Partners",
    "Solutions",
    "Inc",
    "Co",
    "Collective",
];

/// Endings of investor firm names.
pub const FIRM_ENDS: &[&str] = &[
    "Ventures",
    "Capital",
    "Partners",
    "Ventures",
    "Capital",
    "VC",
    "Fund",
    "Growth",
    "Investments",
    "Equity Partners",
];

/// News outlets covering deals.
pub const NEWS_OUTLETS: &[&str] = &[
    "techcrunch.com",
    "venturebeat.com",
    "sifted.eu",
    "businessinsider.com",
    "fortune.com",
    "axios.com",
    "finsmes.com",
    "eu-startups.com",
    "tech.eu",
    "inc42.com",
    "betakit.com",
    "techinasia.com",
    "geekwire.com",
    "siliconangle.com",
    "theinformation.com",
];

/// Press-release wires.
pub const WIRES: &[&str] = &[
    "www.businesswire.com",
    "www.prnewswire.com",
    "www.globenewswire.com",
];

/// Second halves of profile headlines ("CTO | Building …").
pub const HEADLINE_TAILS: &[&str] = &[
    "Building the future of work",
    "Helping teams ship faster",
    "Scaling startups",
    "Ex-founder",
    "Angel investor",
    "Speaker and mentor",
    "Passionate about customers",
    "Hiring!",
    "Data-driven leader",
    "Open source enthusiast",
    "Building great teams",
];
