use ports::accounts::PasswordHasher;

/// bcrypt on tokio's blocking pool (a hash takes a quarter of a second at
/// the default cost). Passwords reach here already limited to 72 bytes by
/// the domain's password rule, so bcrypt never truncates one silently.
#[derive(Debug, Clone, Copy)]
pub struct BcryptHasher {
    cost: u32,
}

impl BcryptHasher {
    pub fn new(cost: u32) -> Self {
        Self { cost }
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_hash_verifies_its_password_and_nothing_else() {
        let hasher = BcryptHasher::new(4);
        let hash = hasher.hash("パスワード1234").await.unwrap();

        assert!(hasher.verify("パスワード1234", &hash).await.unwrap());
        assert!(!hasher.verify("パスワード1235", &hash).await.unwrap());
        assert!(!hasher.verify("パスワード1234", "not-a-hash").await.unwrap());
    }
}
