//! Countries and cities. Weights are per mille of company headquarters; about 3 % of companies
//! have no known country (`NO_COUNTRY_WEIGHT`).

/// A city: its name, its region (a state code in the US, a region name elsewhere) and the
/// metro-area label profiles show.
pub struct City {
    pub name: &'static str,
    pub region: &'static str,
    pub metro: &'static str,
}

/// A country where companies are headquartered and jobs are located.
pub struct Country {
    pub code: &'static str,
    pub name: &'static str,
    pub weight: u32,
    /// Local currency when it is one the service accepts (else deals are in USD).
    pub currency: Option<&'static str>,
    /// Country-code top-level domain some local companies use.
    pub tld: Option<&'static str>,
    pub cities: &'static [City],
}

/// Weight (per mille, like the countries') of headquarters with no known country.
pub const NO_COUNTRY_WEIGHT: u32 = 30;

const fn c(name: &'static str, region: &'static str, metro: &'static str) -> City {
    City {
        name,
        region,
        metro,
    }
}

const fn k(
    code: &'static str,
    name: &'static str,
    weight: u32,
    currency: Option<&'static str>,
    tld: Option<&'static str>,
    cities: &'static [City],
) -> Country {
    Country {
        code,
        name,
        weight,
        currency,
        tld,
        cities,
    }
}

#[rustfmt::skip]
/// The countries, the United States first.
pub static COUNTRIES: &[Country] = &[
    k("US", "United States", 400, None, None, &[
        c("San Francisco", "CA", "San Francisco Bay Area"),
        c("New York", "NY", "New York City Metropolitan Area"),
        c("Austin", "TX", "Austin, Texas Metropolitan Area"),
        c("Seattle", "WA", "Greater Seattle Area"),
        c("Boston", "MA", "Greater Boston"),
        c("Los Angeles", "CA", "Los Angeles Metropolitan Area"),
        c("Chicago", "IL", "Greater Chicago Area"),
        c("Denver", "CO", "Denver Metropolitan Area"),
        c("Atlanta", "GA", "Atlanta Metropolitan Area"),
        c("Miami", "FL", "Miami-Fort Lauderdale Area"),
        c("Palo Alto", "CA", "San Francisco Bay Area"),
        c("San Diego", "CA", "Greater San Diego Area"),
        c("Washington", "DC", "Washington DC-Baltimore Area"),
        c("Salt Lake City", "UT", "Salt Lake City Metropolitan Area"),
        c("Raleigh", "NC", "Raleigh-Durham-Chapel Hill Area"),
        c("Dallas", "TX", "Dallas-Fort Worth Metroplex"),
        c("Pittsburgh", "PA", "Greater Pittsburgh Region"),
        c("Portland", "OR", "Portland, Oregon Metropolitan Area"),
        c("Minneapolis", "MN", "Greater Minneapolis-St. Paul Area"),
        c("Phoenix", "AZ", "Greater Phoenix Area"),
    ]),
    k("GB", "United Kingdom", 80, Some("GBP"), Some("co.uk"), &[
        c("London", "England", "Greater London"),
        c("Manchester", "England", "Greater Manchester"),
        c("Cambridge", "England", "Cambridge, England, United Kingdom"),
        c("Edinburgh", "Scotland", "Edinburgh, Scotland, United Kingdom"),
        c("Bristol", "England", "Bristol, England, United Kingdom"),
        c("Oxford", "England", "Oxford, England, United Kingdom"),
    ]),
    k("DE", "Germany", 60, Some("EUR"), Some("de"), &[
        c("Berlin", "Berlin", "Berlin Metropolitan Area"),
        c("Munich", "Bavaria", "Greater Munich Metropolitan Area"),
        c("Hamburg", "Hamburg", "Hamburg Metropolitan Area"),
        c("Frankfurt", "Hesse", "Frankfurt Rhine-Main Metropolitan Area"),
        c("Cologne", "North Rhine-Westphalia", "Cologne Bonn Region"),
    ]),
    k("FR", "France", 50, Some("EUR"), Some("fr"), &[
        c("Paris", "Île-de-France", "Greater Paris Metropolitan Region"),
        c("Lyon", "Auvergne-Rhône-Alpes", "Lyon, Auvergne-Rhône-Alpes, France"),
        c("Toulouse", "Occitanie", "Toulouse, Occitanie, France"),
        c("Nantes", "Pays de la Loire", "Nantes, Pays de la Loire, France"),
    ]),
    k("IN", "India", 50, Some("INR"), Some("in"), &[
        c("Bengaluru", "Karnataka", "Bengaluru, Karnataka, India"),
        c("Mumbai", "Maharashtra", "Mumbai Metropolitan Region"),
        c("New Delhi", "Delhi", "Delhi, India"),
        c("Hyderabad", "Telangana", "Hyderabad, Telangana, India"),
        c("Pune", "Maharashtra", "Pune/Pimpri-Chinchwad Area"),
        c("Gurugram", "Haryana", "Gurugram, Haryana, India"),
    ]),
    k("CA", "Canada", 40, Some("CAD"), Some("ca"), &[
        c("Toronto", "Ontario", "Greater Toronto Area"),
        c("Vancouver", "British Columbia", "Greater Vancouver"),
        c("Montreal", "Quebec", "Greater Montreal"),
        c("Ottawa", "Ontario", "Ottawa, Ontario, Canada"),
        c("Waterloo", "Ontario", "Kitchener-Waterloo Area"),
    ]),
    k("IL", "Israel", 30, None, Some("co.il"), &[
        c("Tel Aviv", "Tel Aviv District", "Tel Aviv-Yafo, Israel"),
        c("Jerusalem", "Jerusalem District", "Jerusalem, Israel"),
        c("Haifa", "Haifa District", "Haifa, Israel"),
    ]),
    k("NL", "Netherlands", 25, Some("EUR"), Some("nl"), &[
        c("Amsterdam", "North Holland", "Amsterdam Area"),
        c("Rotterdam", "South Holland", "Rotterdam and The Hague"),
        c("Utrecht", "Utrecht", "Utrecht, Netherlands"),
        c("Eindhoven", "North Brabant", "Eindhoven Area"),
    ]),
    k("SE", "Sweden", 20, Some("SEK"), Some("se"), &[
        c("Stockholm", "Stockholm County", "Stockholm, Sweden"),
        c("Gothenburg", "Västra Götaland", "Gothenburg, Sweden"),
        c("Malmö", "Skåne", "Malmö, Sweden"),
    ]),
    k("SG", "Singapore", 20, Some("SGD"), Some("sg"), &[
        c("Singapore", "Singapore", "Singapore"),
    ]),
    k("AU", "Australia", 20, Some("AUD"), Some("com.au"), &[
        c("Sydney", "New South Wales", "Greater Sydney Area"),
        c("Melbourne", "Victoria", "Greater Melbourne Area"),
        c("Brisbane", "Queensland", "Greater Brisbane Area"),
    ]),
    k("ES", "Spain", 20, Some("EUR"), Some("es"), &[
        c("Madrid", "Community of Madrid", "Greater Madrid Metropolitan Area"),
        c("Barcelona", "Catalonia", "Greater Barcelona Metropolitan Area"),
        c("Valencia", "Valencian Community", "Valencia, Spain"),
    ]),
    k("BR", "Brazil", 20, Some("BRL"), Some("com.br"), &[
        c("São Paulo", "São Paulo", "São Paulo, Brazil"),
        c("Rio de Janeiro", "Rio de Janeiro", "Rio de Janeiro, Brazil"),
        c("Belo Horizonte", "Minas Gerais", "Belo Horizonte, Brazil"),
    ]),
    k("JP", "Japan", 20, Some("JPY"), Some("jp"), &[
        c("Tokyo", "Tokyo", "Tokyo, Japan"),
        c("Osaka", "Osaka", "Osaka, Japan"),
        c("Fukuoka", "Fukuoka", "Fukuoka, Japan"),
    ]),
    k("CH", "Switzerland", 15, Some("CHF"), Some("ch"), &[
        c("Zurich", "Zurich", "Zurich Metropolitan Area"),
        c("Geneva", "Geneva", "Geneva Metropolitan Area"),
        c("Lausanne", "Vaud", "Lausanne, Vaud, Switzerland"),
        c("Zug", "Zug", "Zug, Switzerland"),
    ]),
    k("IE", "Ireland", 10, Some("EUR"), Some("ie"), &[
        c("Dublin", "County Dublin", "Dublin, Ireland"),
        c("Cork", "County Cork", "Cork, Ireland"),
    ]),
    k("IT", "Italy", 15, Some("EUR"), Some("it"), &[
        c("Milan", "Lombardy", "Milan, Lombardy, Italy"),
        c("Rome", "Lazio", "Rome, Lazio, Italy"),
        c("Turin", "Piedmont", "Turin, Piedmont, Italy"),
    ]),
    k("DK", "Denmark", 10, Some("DKK"), Some("dk"), &[
        c("Copenhagen", "Capital Region of Denmark", "Copenhagen Metropolitan Area"),
        c("Aarhus", "Central Denmark Region", "Aarhus, Denmark"),
    ]),
    k("FI", "Finland", 8, Some("EUR"), Some("fi"), &[
        c("Helsinki", "Uusimaa", "Helsinki Metropolitan Area"),
        c("Espoo", "Uusimaa", "Helsinki Metropolitan Area"),
    ]),
    k("NO", "Norway", 8, None, Some("no"), &[c("Oslo", "Oslo", "Oslo, Norway")]),
    k("PL", "Poland", 10, None, Some("pl"), &[
        c("Warsaw", "Masovian", "Warsaw Metropolitan Area"),
        c("Kraków", "Lesser Poland", "Kraków Metropolitan Area"),
    ]),
    k("AT", "Austria", 8, Some("EUR"), Some("at"), &[c("Vienna", "Vienna", "Vienna, Austria")]),
    k("BE", "Belgium", 8, Some("EUR"), Some("be"), &[
        c("Brussels", "Brussels-Capital", "Brussels Metropolitan Area"),
        c("Antwerp", "Flanders", "Antwerp Metropolitan Area"),
    ]),
    k("PT", "Portugal", 7, Some("EUR"), Some("pt"), &[
        c("Lisbon", "Lisbon", "Lisbon, Portugal"),
        c("Porto", "Porto", "Porto, Portugal"),
    ]),
    k("EE", "Estonia", 4, Some("EUR"), Some("ee"), &[c("Tallinn", "Harju County", "Tallinn, Estonia")]),
    k("CZ", "Czechia", 5, None, Some("cz"), &[c("Prague", "Prague", "Prague, Czechia")]),
    k("KR", "South Korea", 7, Some("KRW"), Some("kr"), &[c("Seoul", "Seoul", "Seoul, South Korea")]),
    k("CN", "China", 10, Some("CNY"), Some("cn"), &[
        c("Shanghai", "Shanghai", "Shanghai, China"),
        c("Beijing", "Beijing", "Beijing, China"),
        c("Shenzhen", "Guangdong", "Shenzhen, Guangdong, China"),
    ]),
    k("AE", "United Arab Emirates", 8, None, Some("ae"), &[
        c("Dubai", "Dubai", "Dubai, United Arab Emirates"),
        c("Abu Dhabi", "Abu Dhabi", "Abu Dhabi, United Arab Emirates"),
    ]),
    k("MX", "Mexico", 8, None, Some("mx"), &[
        c("Mexico City", "Mexico City", "Mexico City Metropolitan Area"),
        c("Guadalajara", "Jalisco", "Guadalajara, Jalisco, Mexico"),
        c("Monterrey", "Nuevo León", "Monterrey Metropolitan Area"),
    ]),
    k("NG", "Nigeria", 5, None, Some("ng"), &[c("Lagos", "Lagos State", "Lagos, Nigeria")]),
    k("KE", "Kenya", 4, None, Some("co.ke"), &[c("Nairobi", "Nairobi County", "Nairobi, Kenya")]),
    k("ZA", "South Africa", 5, None, Some("co.za"), &[
        c("Cape Town", "Western Cape", "Cape Town, Western Cape, South Africa"),
        c("Johannesburg", "Gauteng", "Johannesburg, Gauteng, South Africa"),
    ]),
    k("NZ", "New Zealand", 4, Some("NZD"), Some("co.nz"), &[
        c("Auckland", "Auckland", "Auckland, New Zealand"),
        c("Wellington", "Wellington", "Wellington, New Zealand"),
    ]),
    k("AR", "Argentina", 5, None, Some("com.ar"), &[
        c("Buenos Aires", "Buenos Aires", "Buenos Aires, Argentina"),
    ]),
];

/// Approximate units of each accepted currency per US dollar, to size deals in local money.
pub fn per_usd(currency: &str) -> f64 {
    match currency {
        "EUR" => 0.92,
        "GBP" => 0.79,
        "CHF" => 0.88,
        "JPY" => 150.0,
        "INR" => 83.0,
        "CAD" => 1.36,
        "AUD" => 1.52,
        "SEK" => 10.5,
        "CNY" => 7.2,
        "NZD" => 1.65,
        "KRW" => 1350.0,
        "SGD" => 1.34,
        "DKK" => 6.9,
        "BRL" => 5.0,
        _ => 1.0,
    }
}
