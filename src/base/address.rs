//! What a server's address names: its host and port, and how far an IP
//! address reaches (this computer, the private network, beyond).
//!
//! An address is read once, here, by the WHATWG URL standard (the `url`
//! crate), which is how Node's `new URL()` in the shim reads it: a `\` ends
//! the host, `0x7f.1` is 127.0.0.1, tabs vanish. The shim is handed the
//! address as the standard writes it and the host read from it, and refuses
//! to connect when its own reading differs; a hand-written second reading
//! once let `http://93.184.215.14\@127.0.0.1/` pass as local.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use url::{Host, Url};

/// How far an address reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// This computer (127.0.0.0/8, ::1).
    Loopback,
    /// The private network: 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16,
    /// link-local 169.254.0.0/16 and fe80::/10, unique local fc00::/7.
    Private,
    /// A cloud's metadata service (169.254.169.254, fd00:ec2::254): inside
    /// the private ranges, but it hands out the machine's credentials, so
    /// it is not "my network".
    CloudMetadata,
    /// Anything else, the unspecified address included.
    Public,
}

/// The metadata service's addresses, which Local only refuses.
const METADATA_V4: Ipv4Addr = Ipv4Addr::new(169, 254, 169, 254);
const METADATA_V6: Ipv6Addr = Ipv6Addr::new(0xfd00, 0xec2, 0, 0, 0, 0, 0, 0x254);

/// An `http(s)` address as the WHATWG URL standard reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Destination {
    /// The address as the standard writes it: what the host opens.
    pub url: String,
    /// The host as `new URL(url).hostname` reads it (an IPv6 one in brackets).
    pub hostname: String,
    pub port: u16,
    /// The IP address the host is, when it is one rather than a name.
    pub ip: Option<IpAddr>,
    /// The host, and the port when the address names one: how the settings
    /// name a server (`localhost:11434`, `api.openai.com`).
    pub shown: String,
}

impl Destination {
    /// `host:port`, as the connection log shows it.
    pub fn label(&self) -> String {
        format!("{}:{}", self.hostname, self.port)
    }
}

/// The destination of an `http://` or `https://` address, or why it has none.
pub fn destination(address: &str) -> Result<Destination, String> {
    let fix = "write it as http://host:port/path, for example http://localhost:11434/v1";
    let url = Url::parse(address)
        .map_err(|error| format!("{address:?} is not a web address ({error}); {fix}."))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(format!(
            "{address:?} is a {}: address, and only http: and https: ones reach a server; {fix}.",
            url.scheme()
        ));
    }
    let (hostname, ip) = match url.host() {
        Some(Host::Domain(name)) if !name.is_empty() => (name.to_string(), None),
        Some(Host::Ipv4(v4)) => (v4.to_string(), Some(IpAddr::V4(v4))),
        Some(Host::Ipv6(v6)) => (format!("[{v6}]"), Some(IpAddr::V6(v6))),
        _ => return Err(format!("{address:?} names no server; {fix}.")),
    };
    // The standard writes an IPv6 host in its own compressed form.
    let hostname = url.host_str().map_or(hostname, str::to_string);
    let port = url
        .port_or_known_default()
        .ok_or_else(|| format!("{address:?} has no port; {fix}."))?;
    let shown = match url.port() {
        Some(port) => format!("{hostname}:{port}"),
        None => hostname.clone(),
    };
    Ok(Destination {
        url: url.into(),
        hostname,
        port,
        ip,
        shown,
    })
}

/// The reach of an IP address written as text; `None` when it is a name.
pub fn reach_of_address(text: &str) -> Option<Reach> {
    let bare = text.trim_start_matches('[').trim_end_matches(']');
    bare.parse::<IpAddr>().ok().map(reach_of_ip)
}

/// How far `ip` reaches; an IPv4 address mapped into IPv6 as its IPv4 self.
pub fn reach_of_ip(ip: IpAddr) -> Reach {
    match ip {
        IpAddr::V4(v4) => reach_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => reach_v4(v4),
            None if v6.is_loopback() => Reach::Loopback,
            None if v6 == METADATA_V6 => Reach::CloudMetadata,
            None => {
                let first = v6.segments()[0];
                // Unique local (fc00::/7) and link-local (fe80::/10).
                if (first & 0xfe00) == 0xfc00 || (first & 0xffc0) == 0xfe80 {
                    Reach::Private
                } else {
                    Reach::Public
                }
            }
        },
    }
}

fn reach_v4(v4: Ipv4Addr) -> Reach {
    if v4 == METADATA_V4 {
        Reach::CloudMetadata
    } else if v4.is_loopback() {
        Reach::Loopback
    } else if v4.is_private() || v4.is_link_local() {
        Reach::Private
    } else {
        Reach::Public
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host_port(address: &str) -> Option<(String, u16)> {
        destination(address).ok().map(|d| (d.hostname, d.port))
    }

    #[test]
    fn destinations_of_addresses() {
        let d = host_port;
        assert_eq!(
            d("http://localhost:11434/v1"),
            Some(("localhost".into(), 11434))
        );
        assert_eq!(
            d("https://API.openai.com/v1/chat"),
            Some(("api.openai.com".into(), 443))
        );
        assert_eq!(d("http://[::1]:8080/x"), Some(("[::1]".into(), 8080)));
        assert_eq!(d("http://user:pw@10.0.0.2/"), Some(("10.0.0.2".into(), 80)));
        assert_eq!(d("http://h:99999/"), None, "no such port");
        assert_eq!(d("ftp://h/"), None);
        assert_eq!(d("file:///etc/passwd"), None);
        assert_eq!(
            d("http:///nothing"),
            Some(("nothing".into(), 80)),
            "as Node reads it"
        );
        assert_eq!(d("localhost:11434"), None, "no scheme");
    }

    /// The round-three attack: a `\` ends the host in http(s) addresses, so
    /// the host is the public one before it, not the local one after `@`.
    #[test]
    fn a_backslash_ends_the_host_as_node_reads_it() {
        for (address, host) in [
            (
                "http://93.184.215.14:8080\\@127.0.0.1:8080/v1",
                "93.184.215.14",
            ),
            (
                "http://93.184.215.14:8080\\\\@127.0.0.1:8080/v1",
                "93.184.215.14",
            ),
            ("https://93.184.215.14\\@127.0.0.1/v1", "93.184.215.14"),
            ("http://evil.example\\@localhost/v1", "evil.example"),
            ("http://[2606:4700::1111]\\@127.0.0.1/", "[2606:4700::1111]"),
            ("HTTP://93.184.215.14/", "93.184.215.14"),
            ("http:/93.184.215.14/", "93.184.215.14"),
            ("http:\\\\93.184.215.14\\v1", "93.184.215.14"),
        ] {
            let found = destination(address).unwrap();
            assert_eq!(found.hostname, host, "{address}");
            let reach = found.ip.map(reach_of_ip);
            assert_ne!(reach, Some(Reach::Loopback), "{address}");
        }
    }

    /// Spellings the standard turns into a plain address are judged as it.
    #[test]
    fn normalised_host_forms_are_judged_as_normalised() {
        for (address, host, reach) in [
            ("http://2130706433/", "127.0.0.1", Reach::Loopback),
            ("http://0177.0.0.1/", "127.0.0.1", Reach::Loopback),
            ("http://0x7f.1/", "127.0.0.1", Reach::Loopback),
            ("http://127.1/", "127.0.0.1", Reach::Loopback),
            ("http://%31%32%37.0.0.1/", "127.0.0.1", Reach::Loopback),
            ("http://1\t27.0.0.1/", "127.0.0.1", Reach::Loopback),
            ("http://127.0.0.1\n:8080/", "127.0.0.1", Reach::Loopback),
            (
                "http://0x5d.0xb8.0xd7.0x0e/",
                "93.184.215.14",
                Reach::Public,
            ),
            ("http://1572394766/", "93.184.215.14", Reach::Public),
            (
                "http://[::ffff:93.184.215.14]/",
                "[::ffff:5db8:d70e]",
                Reach::Public,
            ),
            (
                "http://[::ffff:127.0.0.1]/",
                "[::ffff:7f00:1]",
                Reach::Loopback,
            ),
            ("http://[0:0:0:0:0:0:0:1]/", "[::1]", Reach::Loopback),
            (
                "http://169.254.169.254/latest/",
                "169.254.169.254",
                Reach::CloudMetadata,
            ),
            (
                "http://[fd00:ec2::254]/",
                "[fd00:ec2::254]",
                Reach::CloudMetadata,
            ),
            (
                "http://0xa9fea9fe/",
                "169.254.169.254",
                Reach::CloudMetadata,
            ),
        ] {
            let found = destination(address).unwrap();
            assert_eq!(found.hostname, host, "{address}");
            assert_eq!(found.ip.map(reach_of_ip), Some(reach), "{address}");
        }
    }

    #[test]
    fn the_address_handed_on_is_the_one_checked() {
        let found = destination("HTTP://user:pw@0x7F.1:8080/v1\\chat").unwrap();
        assert_eq!(found.url, "http://user:pw@127.0.0.1:8080/v1/chat");
        assert_eq!(found.label(), "127.0.0.1:8080");
        let why = destination("gopher://x/").unwrap_err();
        assert!(why.contains("only http: and https:"), "{why}");
        assert!(why.contains("http://localhost:11434/v1"), "{why}");
    }

    #[test]
    fn reach_of_each_kind_of_address() {
        for (address, reach) in [
            ("127.0.0.1", Reach::Loopback),
            ("127.8.9.10", Reach::Loopback),
            ("::1", Reach::Loopback),
            ("[::1]", Reach::Loopback),
            ("::ffff:127.0.0.1", Reach::Loopback),
            ("10.1.2.3", Reach::Private),
            ("172.16.0.1", Reach::Private),
            ("172.31.255.255", Reach::Private),
            ("192.168.1.20", Reach::Private),
            ("169.254.1.1", Reach::Private),
            ("169.254.169.254", Reach::CloudMetadata),
            ("fd00:ec2::254", Reach::CloudMetadata),
            ("fd12:3456::1", Reach::Private),
            ("fe80::1", Reach::Private),
            ("172.32.0.1", Reach::Public),
            ("8.8.8.8", Reach::Public),
            ("0.0.0.0", Reach::Public),
            ("::", Reach::Public),
            ("2606:4700::1111", Reach::Public),
            ("::ffff:8.8.8.8", Reach::Public),
            ("FD12::1", Reach::Private),
            ("fc0::1", Reach::Public),
        ] {
            assert_eq!(reach_of_address(address), Some(reach), "{address}");
        }
        assert_eq!(reach_of_address("localhost"), None);
        assert_eq!(reach_of_address("nas.lan"), None);
        assert_eq!(reach_of_address("1.2.3.256"), None);
    }
}
