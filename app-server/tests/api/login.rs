use serde_json::{json, Value};

use crate::helpers::{spawn_app, spawn_app_with, unique_email};

const PASSWORD: &str = "correct-horse-1";

#[tokio::test]
async fn a_member_registered_from_the_mail_link_logs_in_and_the_check_says_so() {
    let app = spawn_app().await;
    let email = unique_email("member");
    app.register_member(&email, PASSWORD).await;

    let token = app.login(&email, PASSWORD).await;
    let check = app.get_with_token("/v1/user/loginCheck", &token).await;

    assert_eq!(check.status(), 200);
    let body: Value = check.json().await.unwrap();
    assert_eq!(body["data"]["flag"], 1);
    assert_eq!(body["data"]["isAdmin"], false);
    assert!(body["data"]["userId"].as_i64().unwrap() > 0);
}

#[tokio::test]
async fn an_activation_key_works_only_once() {
    let app = spawn_app().await;
    let email = unique_email("once");
    app.register_member(&email, PASSWORD).await;
    let key = crate::helpers::activation_key(&app.mails_to(&email, 1).await[0]);

    let again = app
        .post_json("/v1/user/registPassword", &json!({"flag": 1, "password": "another-pass-2", "activatekey": key}))
        .await;

    assert_eq!(again.status(), 400);
    let body: Value = again.json().await.unwrap();
    assert_eq!(body["error"], "invalid_key");
    assert_eq!(
        body["message"],
        "アクティベートキーが無効です。メールアドレス登録時のメールに記載されたURLから再度アクセスしてください。"
    );
}

#[tokio::test]
async fn password_rules_are_enforced_with_the_spec_messages() {
    let app = spawn_app().await;
    for (password, message) in [
        ("", "パスワードを入力してください"),
        ("short", "パスワードは8文字以上で設定してください"),
        (&"あ".repeat(64), "パスワードは72バイト以内で設定してください（全角文字は1文字3バイトです）。"),
    ] {
        let resp = app
            .post_json("/v1/user/registPassword", &json!({"flag": 1, "password": password, "activatekey": "x"}))
            .await;
        assert_eq!(resp.status(), 400);
        assert_eq!(resp.json::<Value>().await.unwrap()["message"], message);
    }
}

#[tokio::test]
async fn a_wrong_password_and_an_unknown_address_get_their_reasons() {
    let app = spawn_app().await;
    let email = unique_email("reasons");
    app.register_member(&email, PASSWORD).await;

    let wrong = app.post_json("/v1/user/login", &json!({"email": email, "password": "wrong-password"})).await;
    assert_eq!(wrong.status(), 401);
    let body: Value = wrong.json().await.unwrap();
    assert_eq!(body["message"], "パスワードが間違っています");
    assert_eq!(body["detail"], "E_PASSWORD_MISMATCH");
    assert_eq!(body["failedStatus"]["isBanned"], false);

    let unknown =
        app.post_json("/v1/user/login", &json!({"email": unique_email("nobody"), "password": PASSWORD})).await;
    assert_eq!(unknown.status(), 401);
    let body: Value = unknown.json().await.unwrap();
    assert_eq!(body["message"], "登録されていないメールアドレスです。");
    assert_eq!(body["detail"], "E_USER_NOT_FOUND");
}

#[tokio::test]
async fn the_tenth_wrong_password_locks_the_account_even_against_the_right_password() {
    let app = spawn_app().await;
    let email = unique_email("lock");
    app.register_member(&email, PASSWORD).await;

    for attempt in 1..=9 {
        let resp = app.post_json("/v1/user/login", &json!({"email": email, "password": "wrong-password"})).await;
        assert_eq!(resp.status(), 401, "attempt {attempt}");
    }
    let tenth = app.post_json("/v1/user/login", &json!({"email": email, "password": "wrong-password"})).await;
    assert_eq!(tenth.status(), 403);
    let body: Value = tenth.json().await.unwrap();
    assert_eq!(body["error"], "login_locked");
    assert_eq!(body["isBanned"], true);
    assert!(body["unbannedTime"].as_str().unwrap().ends_with("+09:00"));
    let message = body["message"].as_str().unwrap();
    assert!(message.starts_with("パスワードを10回間違えたため、"), "{message}");
    assert!(message.ends_with("までログインが制限されています。制限を解除したい場合は運営まで連絡してください。"));

    let right = app.post_json("/v1/user/login", &json!({"email": email, "password": PASSWORD})).await;
    assert_eq!(right.status(), 403);

    // When the lock has passed, the right password works again.
    app.execute(&format!(
        "UPDATE users SET banned_until = now() - interval '1 minute' WHERE lower(email) = lower('{email}')"
    ));
    app.login(&email, PASSWORD).await;
}

#[tokio::test]
async fn a_password_change_invalidates_earlier_tokens_and_returns_a_working_one() {
    let app = spawn_app().await;
    let email = unique_email("change");
    app.register_member(&email, PASSWORD).await;
    let old_token = app.login(&email, PASSWORD).await;

    let resp = app
        .post_json_with_token(
            "/v1/user/set/updatePassword",
            &old_token,
            &json!({"id": 1, "email": email, "oldPassword": PASSWORD, "newPassword": "brand-new-pass-3"}),
        )
        .await;
    assert_eq!(resp.status(), 200);
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["updated"], true);
    let new_token = body["token"].as_str().unwrap().to_string();

    let stale = app.get_with_token("/v1/user/loginCheck", &old_token).await;
    assert_eq!(stale.status(), 401);
    assert_eq!(
        stale.json::<Value>().await.unwrap()["message"],
        "ログイン有効期限が切れました。お手数ですが再度ログインしなおしてください。"
    );
    assert_eq!(app.get_with_token("/v1/user/loginCheck", &new_token).await.status(), 200);
    app.login(&email, "brand-new-pass-3").await;
    let old = app.post_json("/v1/user/login", &json!({"email": email, "password": PASSWORD})).await;
    assert_eq!(old.status(), 401);
}

#[tokio::test]
async fn a_wrong_current_password_changes_nothing() {
    let app = spawn_app().await;
    let email = unique_email("nochange");
    app.register_member(&email, PASSWORD).await;
    let token = app.login(&email, PASSWORD).await;

    let resp = app
        .post_json_with_token(
            "/v1/user/set/updatePassword",
            &token,
            &json!({"oldPassword": "not-my-password", "newPassword": "brand-new-pass-3"}),
        )
        .await;

    assert_eq!(resp.status(), 401);
    assert_eq!(resp.json::<Value>().await.unwrap()["detail"], "E_PASSWORD_MISMATCH");
    assert_eq!(app.get_with_token("/v1/user/loginCheck", &token).await.status(), 200);
}

#[tokio::test]
async fn requests_without_a_valid_token_are_401() {
    let app = spawn_app().await;

    assert_eq!(app.get("/v1/user/loginCheck").await.status(), 401);
    assert_eq!(app.get_with_token("/v1/user/loginCheck", "forged.token.value").await.status(), 401);
    let resp = app.post_json("/v1/user/set/updatePassword", &json!({"oldPassword": "a", "newPassword": "b"})).await;
    assert_eq!(resp.status(), 401);
}

#[tokio::test]
async fn configured_administrators_are_told_so_by_the_login_check() {
    let email = unique_email("admin");
    let admin = email.clone();
    let app = spawn_app_with(move |s| s.admin_emails = vec![admin.to_uppercase()]).await;
    app.register_member(&email, PASSWORD).await;

    let token = app.login(&email, PASSWORD).await;
    let body: Value = app.get_with_token("/v1/user/loginCheck", &token).await.json().await.unwrap();

    assert_eq!(body["data"]["isAdmin"], true);
}

#[tokio::test]
async fn twenty_parallel_wrong_passwords_lock_the_account_and_the_right_one_is_then_refused() {
    let app = spawn_app().await;
    let email = unique_email("parallel");
    app.register_member(&email, PASSWORD).await;

    let guesses = (0..20).map(|_| {
        let (client, url, email) = (app.client.clone(), format!("{}/v1/user/login", app.address), email.clone());
        tokio::spawn(async move {
            client.post(url).json(&json!({"email": email, "password": "wrong-password"})).send().await.unwrap().status()
        })
    });
    let mut statuses = Vec::new();
    for guess in guesses.collect::<Vec<_>>() {
        statuses.push(guess.await.unwrap().as_u16());
    }

    assert_eq!(statuses.iter().filter(|s| **s == 401).count(), 9, "nine counted failures, then the lock: {statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 403).count(), 11, "{statuses:?}");
    let right = app.post_json("/v1/user/login", &json!({"email": email, "password": PASSWORD})).await;
    assert_eq!(right.status(), 403);
    assert_eq!(
        app.query_i64(&format!("SELECT failed_login_count::bigint AS value FROM users WHERE email = '{email}'")),
        10
    );
}

#[tokio::test]
async fn wrong_current_passwords_on_a_password_change_lock_the_account_like_login() {
    let app = spawn_app().await;
    let email = unique_email("guesser");
    app.register_member(&email, PASSWORD).await;
    let token = app.login(&email, PASSWORD).await;
    let change = |old: &'static str| {
        let (app, token) = (&app, token.clone());
        async move {
            app.post_json_with_token(
                "/v1/user/set/updatePassword",
                &token,
                &json!({"oldPassword": old, "newPassword": "brand-new-pass-3"}),
            )
            .await
        }
    };

    for attempt in 1..=9 {
        assert_eq!(change("wrong-guess").await.status(), 401, "guess {attempt}");
    }
    let tenth = change("wrong-guess").await;
    assert_eq!(tenth.status(), 429);
    let body: Value = tenth.json().await.unwrap();
    assert_eq!(body["error"], "account_locked");
    assert!(body["message"].as_str().unwrap().starts_with("パスワードを10回間違えたため、"));

    assert_eq!(change(PASSWORD).await.status(), 429, "even the right password waits for the lock to pass");
    let login = app.post_json("/v1/user/login", &json!({"email": email, "password": PASSWORD})).await;
    assert_eq!(login.status(), 403);
}

#[tokio::test]
async fn made_up_activation_keys_are_refused_and_rate_limited() {
    let app = spawn_app().await;
    let body = json!({"flag": 1, "password": "guess-pass-1", "activatekey": "made-up"});
    let attempt = || app.post_json("/v1/user/registPassword", &body);

    for n in 1..=30 {
        let resp = attempt().await;
        assert_eq!(resp.status(), 400, "attempt {n}");
        assert_eq!(
            resp.json::<Value>().await.unwrap()["message"],
            "アクティベートキーが無効です。メールアドレス登録時のメールに記載されたURLから再度アクセスしてください。"
        );
    }

    assert_eq!(attempt().await.status(), 429);
}
