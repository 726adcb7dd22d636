//! Where the plugin may connect. With Settings → Safety → "Local only" on,
//! a connection goes only to this computer (loopback) or the private
//! network; anything else is refused before a socket is opened. A host name
//! is resolved first and every address it has must be local; the connection
//! then goes to the address that was checked, so a second lookup cannot
//! point it elsewhere.

/// How far an address reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// This computer.
    Loopback,
    /// The private network (RFC 1918, link-local, unique local IPv6).
    Private,
    /// Anything else, the unspecified address included.
    Public,
}

/// The host and port an `http(s)://` address names; `None` for anything else.
pub fn destination(url: &str) -> Option<(String, u16)> {
    let (scheme, rest) = url.split_once("://")?;
    let default_port = match scheme.to_ascii_lowercase().as_str() {
        "http" => 80,
        "https" => 443,
        _ => return None,
    };
    let authority = rest.split(['/', '?', '#']).next()?;
    let authority = authority.rsplit_once('@').map_or(authority, |(_, a)| a);
    let (host, port) = if let Some(inner) = authority.strip_prefix('[') {
        let (host, after) = inner.split_once(']')?;
        (host, after.strip_prefix(':'))
    } else {
        match authority.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (authority, None),
        }
    };
    let port = match port {
        Some(port) => port.parse().ok()?,
        None => default_port,
    };
    (!host.is_empty()).then(|| (host.to_ascii_lowercase(), port))
}

/// The reach of an IP address written as text; `None` when it is a name.
/// Read by hand rather than with `std::net` (whose parser costs the wasm
/// several KB): a dotted IPv4 address of four parts, or an IPv6 address,
/// judged by its first group or its IPv4-mapped tail. An unusual spelling
/// of a local address reads as public, so it is refused, never let through.
pub fn reach_of_address(text: &str) -> Option<Reach> {
    if let Some(v4) = ipv4(text) {
        return Some(reach_v4(v4));
    }
    if !text.contains(':')
        || !text
            .chars()
            .all(|c| c.is_ascii_hexdigit() || c == ':' || c == '.')
    {
        return None;
    }
    let lower = text.to_ascii_lowercase();
    if lower == "::1" {
        return Some(Reach::Loopback);
    }
    if let Some(v4) = lower.strip_prefix("::ffff:").and_then(ipv4) {
        return Some(reach_v4(v4));
    }
    let first = lower.split(':').next().unwrap_or("");
    let group = u16::from_str_radix(first, 16)
        .ok()
        .filter(|_| first.len() == 4);
    Some(match group {
        // Unique local (fc00::/7) and link-local (fe80::/10).
        Some(g) if (g & 0xfe00) == 0xfc00 || (g & 0xffc0) == 0xfe80 => Reach::Private,
        _ => Reach::Public,
    })
}

/// `a.b.c.d`, each part a decimal 0 to 255 without a leading zero.
fn ipv4(text: &str) -> Option<[u8; 4]> {
    let mut parts = [0u8; 4];
    let mut count = 0;
    for part in text.split('.') {
        if count == 4
            || part.is_empty()
            || part.len() > 3
            || (part.len() > 1 && part.starts_with('0'))
            || !part.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        parts[count] = part.parse().ok()?;
        count += 1;
    }
    (count == 4).then_some(parts)
}

fn reach_v4([a, b, ..]: [u8; 4]) -> Reach {
    match (a, b) {
        (127, _) => Reach::Loopback,
        (10, _) | (192, 168) | (169, 254) => Reach::Private,
        (172, b) if (16..32).contains(&b) => Reach::Private,
        _ => Reach::Public,
    }
}

/// What Local only makes of a destination whose host resolved to
/// `addresses`: the address to connect to, or why not.
pub fn local_address(host: &str, addresses: &[String]) -> Result<String, String> {
    let refused = |what: String| {
        Err(format!(
            "Refused by Settings → Vault Agent → Safety → Local only: {what}, which is not on this computer or its private network. Point the profile at a local server, or turn Local only off."
        ))
    };
    if addresses.is_empty() {
        return refused(format!("{host} has no address"));
    }
    for address in addresses {
        match reach_of_address(address) {
            Some(Reach::Loopback | Reach::Private) => {}
            _ => return refused(format!("{host} is {address}")),
        }
    }
    Ok(addresses[0].clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn destinations_of_addresses() {
        let d = |url: &str| destination(url);
        assert_eq!(
            d("http://localhost:11434/v1"),
            Some(("localhost".into(), 11434))
        );
        assert_eq!(
            d("https://API.openai.com/v1/chat"),
            Some(("api.openai.com".into(), 443))
        );
        assert_eq!(d("http://[::1]:8080/x"), Some(("::1".into(), 8080)));
        assert_eq!(d("http://user:pw@10.0.0.2/"), Some(("10.0.0.2".into(), 80)));
        assert_eq!(d("http://h:99999/"), None, "no such port");
        assert_eq!(d("ftp://h/"), None);
        assert_eq!(d("http:///nothing"), None);
    }

    #[test]
    fn reach_of_each_kind_of_address() {
        for (address, reach) in [
            ("127.0.0.1", Reach::Loopback),
            ("127.8.9.10", Reach::Loopback),
            ("::1", Reach::Loopback),
            ("::ffff:127.0.0.1", Reach::Loopback),
            ("10.1.2.3", Reach::Private),
            ("172.16.0.1", Reach::Private),
            ("172.31.255.255", Reach::Private),
            ("192.168.1.20", Reach::Private),
            ("169.254.1.1", Reach::Private),
            ("fd12:3456::1", Reach::Private),
            ("fe80::1", Reach::Private),
            ("172.32.0.1", Reach::Public),
            ("8.8.8.8", Reach::Public),
            ("0.0.0.0", Reach::Public),
            ("::", Reach::Public),
            ("2606:4700::1111", Reach::Public),
            ("::ffff:8.8.8.8", Reach::Public),
        ] {
            assert_eq!(reach_of_address(address), Some(reach), "{address}");
        }
        assert_eq!(reach_of_address("localhost"), None);
        assert_eq!(reach_of_address("nas.lan"), None);
        assert_eq!(
            reach_of_address("127.1"),
            None,
            "not four parts: looked up as a name"
        );
        assert_eq!(reach_of_address("010.0.0.1"), None);
        assert_eq!(reach_of_address("1.2.3.256"), None);
        // Local addresses in unusual spellings read as public (refused).
        assert_eq!(reach_of_address("0:0:0:0:0:0:0:1"), Some(Reach::Public));
        assert_eq!(reach_of_address("fc0::1"), Some(Reach::Public));
        assert_eq!(reach_of_address("FD12::1"), Some(Reach::Private));
    }

    #[test]
    fn every_address_of_a_name_must_be_local() {
        assert_eq!(
            local_address("nas.lan", &["192.168.1.5".into(), "fd00::5".into()]),
            Ok("192.168.1.5".into())
        );
        let mixed = local_address(
            "sneaky.example",
            &["10.0.0.1".into(), "93.184.215.14".into()],
        );
        let why = mixed.unwrap_err();
        assert!(why.contains("sneaky.example is 93.184.215.14"), "{why}");
        assert!(why.contains("Safety → Local only"), "{why}");
        assert!(local_address("nothing.example", &[]).is_err());
    }
}
