use ports::accounts::PasswordHasher;

use std::sync::Arc;

/// bcrypt on tokio's blocking pool (a hash takes a quarter of a second at
/// the default cost). Passwords reach here already limited to 72 bytes by
/// the domain's password rule, so bcrypt never truncates one silently.
#[derive(Debug, Clone)]
pub struct BcryptHasher {
    cost: u32,
    /// A hash of a random secret at `cost`, checked for accounts without a
    /// password so that their answer takes as long as a real check.
    dummy_hash: Arc<str>,
}

impl BcryptHasher {
    /// Hashes a random value once (a quarter of a second at cost 12).
    pub fn new(cost: u32) -> anyhow::Result<Self> {
        let secret = ports::secrets::KeyGenerator::one_time_key(&ports::secrets::RandomKeys).plain;
        let dummy_hash = bcrypt::hash(secret, cost)?;
        Ok(Self { cost, dummy_hash: dummy_hash.into() })
    }
}

#[async_trait::async_trait]
impl PasswordHasher for BcryptHasher {
    async fn hash(&self, password: &str) -> anyhow::Result<String> {
        let password = password.to_owned();
        let cost = self.cost;
        Ok(tokio::task::spawn_blocking(move || bcrypt::hash(password, cost)).await??)
    }

    async fn verify(&self, password: &str, hash: &str) -> anyhow::Result<bool> {
        let (password, hash) = (password.to_owned(), hash.to_owned());
        Ok(tokio::task::spawn_blocking(move || bcrypt::verify(password, &hash).unwrap_or(false)).await?)
    }

    async fn verify_dummy(&self, password: &str) -> anyhow::Result<()> {
        self.verify(password, &self.dummy_hash).await.map(drop)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hash_verifies_its_password_and_nothing_else() {
        let hasher = BcryptHasher::new(4).unwrap();
        let hash = hasher.hash("パスワード1234").await.unwrap();

        assert!(hasher.verify("パスワード1234", &hash).await.unwrap());
        assert!(!hasher.verify("パスワード1235", &hash).await.unwrap());
        assert!(!hasher.verify("パスワード1234", "not-a-hash").await.unwrap());
    }

    #[tokio::test]
    async fn the_dummy_check_runs_against_a_hash_of_the_configured_cost() {
        let hasher = BcryptHasher::new(5).unwrap();

        // The cost is written in the hash: a dummy check does the same bcrypt work as a real one.
        assert!(hasher.dummy_hash.starts_with("$2b$05$"), "{}", hasher.dummy_hash);
        hasher.verify_dummy("whatever").await.unwrap();
    }
}
