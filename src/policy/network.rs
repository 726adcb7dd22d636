//! Where the plugin may connect. With Settings → Safety → "Local only" on,
//! a connection goes only to this computer (loopback) or the private
//! network (`base::address` reads the address and says how far it
//! reaches); anything else is refused before a socket is opened. A host
//! name is resolved first and every address it has must be local; the
//! connection then goes to the address that was checked, so a second
//! lookup cannot point it elsewhere.

use crate::base::address::{reach_of_address, Reach};

/// What Local only makes of a destination whose host resolved to
/// `addresses`: the address to connect to, or why not.
pub fn local_address(host: &str, addresses: &[String]) -> Result<String, String> {
    let refused = |what: String| {
        Err(format!(
            "Refused by Settings → Vault Agent → Safety → Local only: {what}. Point the profile at a local server, or turn Local only off."
        ))
    };
    if addresses.is_empty() {
        return refused(format!("{host} has no address, so it could not be checked"));
    }
    for address in addresses {
        match reach_of_address(address) {
            Some(Reach::Loopback | Reach::Private) => {}
            Some(Reach::CloudMetadata) => {
                return refused(format!(
                    "{host} is {address}, a cloud's metadata service, which is not this computer or its private network"
                ))
            }
            _ => {
                return refused(format!(
                    "{host} is {address}, which is not on this computer or its private network"
                ))
            }
        }
    }
    Ok(addresses[0].clone())
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let metadata = local_address("metadata.internal", &["169.254.169.254".into()]);
        assert!(metadata.unwrap_err().contains("metadata service"));
    }
}
