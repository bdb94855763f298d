/**
 * The first-run misses of the held-out sets 4 to 11: the ids each set's first run (the redactor
 * alone, before any change made from that set) left in clear, as docs/privacy.md reports them
 * set by set. Data for the leave-one-set-out measure (leave-one-out.test.ts): a rule that is
 * general takes misses of sets it was never written from.
 *
 * Example: `FIRST_RUN_MISSES[4].length` -> 13 (set 4's first run caught 45 of 58).
 */
export const FIRST_RUN_MISSES: Readonly<Record<number, readonly string[]>> = {
  4: [
    "h4-launchdarkly-sdk", "h4-ably-key", "h4-salesforce-session", "h4-openweather-query", "h4-net-use",
    "h4-kubeconfig-client-key", "h4-prose-de", "h4-prose-es", "h4-prose-ja", "h4-prose-fr", "h4-prose-ru",
    "h4-prose-zh", "h4-prose-creds-slash",
  ],
  5: [
    "h5-mercadopago-prose-es", "h5-midtrans-properties", "h5-oci-config-passphrase", "h5-atlassian-jira-python",
    "h5-splunk-hec-header", "h5-sumo-http-source-url", "h5-opsgenie-geniekey", "h5-telegram-bot-url",
    "h5-line-channel-token-ja", "h5-kakao-rest-key-ko", "h5-hibernate-cfg-xml", "h5-sqlplus-history",
    "h5-webconfig-appsettings", "h5-keytool-storepass", "h5-gmail-app-password-smtplib",
    "h5-apple-app-specific-password", "h5-putty-ppk-private-lines", "h5-cloudflared-tunnel-token", "h5-prose-pl",
    "h5-prose-tr", "h5-prose-vi", "h5-prose-ar", "h5-prose-hi",
  ],
  6: [
    "h6-huaweicloud-sk-export", "h6-unleash-backend-token-node", "h6-algolia-admin-key-python",
    "h6-bitcoin-xprv-descriptor", "h6-consul-gossip-encrypt", "h6-clickhouse-create-user", "h6-oracle-create-user",
    "h6-dockerfile-env-legacy-space", "h6-clojure-edn-map", "h6-prose-th",
  ],
  7: [
    "h7-woocommerce-httpie-a", "h7-zoom-s2s-basic-subshell", "h7-logzio-fluentbit-conf",
    "h7-bundler-contribsys-credentials", "h7-nats-creds-seed-block", "h7-openvpn-tls-auth-static-key",
    "h7-ipsec-secrets-psk", "h7-snmpv3-createuser", "h7-unattend-administrator-password",
    "h7-powershell-securestring-plaintext", "h7-mosquitto-pub-capital-p", "h7-hdbuserstore-set",
    "h7-telegraf-mysql-go-dsn", "h7-filezilla-sitemanager-base64-pass", "h7-solana-keypair-json-array",
    "h7-openssl-enc-raw-key", "h7-xml-cdata-password", "h7-prose-fa", "h7-prose-bn", "h7-prose-ta", "h7-prose-sw",
    "h7-prose-ca", "h7-prose-bg", "h7-prose-ka",
  ],
  8: [
    "h8-baidu-bce-python", "h8-volcengine-go-static-credentials", "h8-azure-function-key-query",
    "h8-smtp2go-json-body", "h8-africastalking-php", "h8-pusher-beams-go", "h8-semaphore-sem-connect",
    "h8-develocity-access-key-env", "h8-cloudsmith-push-k", "h8-rapidapi-kotlin-okhttp",
    "h8-jumpcloud-powershell-module", "h8-klist-keytab-keys", "h8-kadmin-addprinc-pw", "h8-kinit-heredoc",
    "h8-devcycle-server-key-python", "h8-astra-db-token-python", "h8-sqlcipher-pragma-raw-key",
    "h8-tsql-create-login", "h8-db2-connect-using", "h8-bteq-logon-heredoc", "h8-couchdb-local-ini-admins",
    "h8-rabbitmqctl-add-user", "h8-erlang-vm-args-cookie", "h8-cardano-skey-file", "h8-nostr-nsec-flag",
    "h8-infura-key-secret-basic", "h8-ttn-api-key-paho", "h8-lorawan-appkey-csv", "h8-zigbee2mqtt-network-key",
    "h8-blynk-auth-token-define", "h8-curseforge-lua-headers", "h8-nextcloud-app-password-davfs2",
    "h8-agora-app-certificate-js", "h8-builder-private-key", "h8-recurly-php-client", "h8-windows-product-key-slmgr",
    "h8-keepass-xml-export", "h8-lastpass-csv-export", "h8-bw-session-export", "h8-openvpn-auth-user-pass-file",
    "h8-headscale-preauth-key", "h8-sbt-credentials-call", "h8-haskell-basic-auth", "h8-cobol-copybook-value",
    "h8-tcl-expect-send", "h8-perl-dbi-connect", "h8-nginx-basic-b64-userpass", "h8-apache-ldap-bind-password",
    "h8-squid-cache-peer-login", "h8-ldif-olcrootpw-plain", "h8-ldif-userpassword-base64", "h8-cfn-noecho-default",
    "h8-odbc-connect-percent-encoded", "h8-prose-lv-sms", "h8-prose-sr-cyrillic", "h8-prose-hy", "h8-prose-kk",
    "h8-prose-ur", "h8-prose-tl", "h8-prose-cy", "h8-prose-eu", "h8-prose-af", "h8-prose-am",
  ],
  9: [
    "h9-e2b-mcp-tool-result-escaped", "h9-serper-markdown-table", "h9-exa-har-header", "h9-vastai-cat-key-file",
    "h9-lambda-cloud-curl-u", "h9-php-pdo-stack-trace-args", "h9-loggly-token-url-path",
    "h9-packagecloud-gem-sources-url", "h9-gemfury-bundle-config", "h9-bunny-accesskey-har",
    "h9-feishu-bot-webhook-ci-log", "h9-google-chat-webhook-token", "h9-spotify-token-url-fragment",
    "h9-ifttt-maker-key-path", "h9-zapier-catch-hook-path", "h9-loops-api-key-markdown-bullet",
    "h9-payfast-passphrase-php-array", "h9-quicknode-endpoint-path-hardhat", "h9-dropbox-sign-key-curl-u-colon",
    "h9-kubectl-secret-base64-password-jsonpath", "h9-curl-v-cookie-header", "h9-chat-sq-token", "h9-chat-az-api-key",
    "h9-chat-si-password", "h9-chat-gu-token", "h9-chat-pa-password", "h9-chat-kn-password", "h9-chat-ml-password",
    "h9-chat-yo-password",
  ],
  10: [
    "h10-ansi-grep-match-inside-token", "h10-ansi-script-typescript-backspace", "h10-ansi-bat-256-colour-env",
    "h10-wrap-vim-showbreak", "h10-wrap-prettier-prose-passphrase", "h10-wrap-base64-76-service-account",
    "h10-wrap-openssl-rand-64", "h10-json-triple-nested-escaping", "h10-sse-delta-alone",
    "h10-url-encoded-json-state", "h10-html-entities-rails-params", "h10-html-numeric-entities-wiki-table",
    "h10-printf-q-escaped", "h10-markdown-escaped-underscores", "h10-diff-word-diff-plain",
    "h10-smtp-auth-login-base64", "h10-curl-v-ftp-pass", "h10-c-byte-array-device-key", "h10-python-bytes-fernet-key",
    "h10-roblosecurity-cookie-python", "h10-s3-presigned-v3-alphabetical", "h10-p12-base64-workflow-env",
    "h10-jks-base64-android-ci", "h10-argocd-initial-admin-password", "h10-jenkins-initial-admin-password-log",
    "h10-elasticsearch-reset-password-new-value", "h10-vault-approle-secret-id-table", "h10-gopass-show-only",
    "h10-secret-tool-lookup", "h10-op-read-reference", "h10-nmcli-show-secrets-psk", "h10-wifi-qr-payload",
    "h10-lftp-user-comma-pass", "h10-htpasswd-batch", "h10-snmpwalk-community", "h10-cisco-type7-password",
    "h10-otpauth-migration-uri", "h10-oathtool-totp-seed", "h10-github-recovery-codes", "h10-google-backup-codes",
    "h10-bitlocker-recovery-key-file", "h10-make-webhook-url", "h10-bitrix24-inbound-webhook",
    "h10-sublime-license-block", "h10-pulumi-config-plaintext-table", "h10-ssh-keygen-passphrase-spaces",
    "h10-gpg-batch-passphrase", "h10-7z-password-glued", "h10-zip-P-password", "h10-cryptsetup-key-file-stdin",
    "h10-docker-secret-create-printf", "h10-chat-fo-quoted-reply", "h10-chat-hsb-passphrase", "h10-chat-tt-ansi",
    "h10-chat-ti-password", "h10-chat-mi-wordlike", "h10-chat-fy-passphrase-nbsp",
  ],
  11: [
    "h11-enc-hex-ascii-password-fromhex", "h11-enc-data-uri-json-refresh-token", "h11-enc-dotenv-base64-ci-var",
    "h11-enc-go-hex-decode-key", "h11-enc-java-base64-decoder-key", "h11-enc-pem-base64-in-env",
    "h11-enc-sql-bytea-hex", "h11-enc-powershell-encodedcommand", "h11-enc-base32-backup-key",
    "h11-enc-base32-lower-nopad", "h11-enc-storj-access-grant", "h11-enc-ascii-hex-env",
    "h11-enc-wasm-env-utf8-array", "h11-enc-mariadb-keyfile-hex", "h11-asm-python-plus",
    "h11-asm-python-implicit-concat", "h11-asm-python-join-chars", "h11-asm-python-format",
    "h11-asm-go-concat-backticks", "h11-asm-go-sprintf", "h11-asm-rust-concat-macro", "h11-asm-rust-byte-array",
    "h11-asm-kotlin-joinToString", "h11-asm-kotlin-template", "h11-asm-swift-joined", "h11-asm-php-dot",
    "h11-asm-ruby-adjacent", "h11-asm-ruby-pack", "h11-asm-lua-dotdot", "h11-asm-lua-string-char",
    "h11-asm-elixir-diamond", "h11-asm-haskell-plusplus", "h11-asm-r-paste0", "h11-asm-julia-star",
    "h11-asm-zig-plusplus", "h11-asm-nim-ampersand", "h11-asm-dart-adjacent", "h11-asm-cobol-string",
    "h11-asm-fortran-slashslash", "h11-asm-ada-ampersand", "h11-asm-powershell-join", "h11-asm-powershell-char-array",
    "h11-asm-c-adjacent-literals", "h11-asm-c-char-array", "h11-asm-csharp-concat", "h11-asm-java-char-array",
    "h11-asm-java-stringbuilder", "h11-asm-js-fromcharcode", "h11-asm-js-template-parts", "h11-asm-perl-dot",
    "h11-asm-perl-qw-join", "h11-asm-bash-printf-parts", "h11-asm-env-split-two-vars", "h11-asm-shell-paste-join",
    "h11-asm-excel-concat", "h11-asm-excel-ampersand", "h11-asm-sql-pipes", "h11-asm-mysql-concat",
    "h11-asm-clojure-str", "h11-asm-ocaml-caret", "h11-asm-scala-mkstring", "h11-asm-erlang-binary",
    "h11-asm-racket-string-append", "h11-asm-vbnet-ampersand", "h11-asm-pascal-plus", "h11-asm-objc-appending",
    "h11-asm-groovy-script", "h11-asm-nix-plus", "h11-asm-hcl-join", "h11-asm-jsonnet-plus",
    "h11-asm-matlab-brackets", "h11-asm-solidity-encodepacked", "h11-asm-vba-chr", "h11-asm-nasm-db",
    "h11-asm-tcl-append", "h11-asm-awk-concat", "h11-asm-jq-plus", "h11-asm-python-fstring-parts",
    "h11-art-csv-quoted-password-with-comma", "h11-art-xlsx-csv-export-sheet-header", "h11-art-sql-insert-multi",
    "h11-art-pg-dump-copy", "h11-art-ocr-photo-of-sticky-note", "h11-art-pdf-extracted-onboarding",
    "h11-art-pdf-hyphenated-token", "h11-art-ics-description", "h11-art-ics-folded-inside", "h11-art-vcard-x-field",
    "h11-art-teams-html-export", "h11-art-tfstate-attributes", "h11-art-cronitor-k8s-cronjob",
    "h11-art-healthchecks-ping-url-systemd", "h11-art-spacelift-api-key-csv", "h11-art-ankr-rpc-url",
    "h11-prose-asturian-chat", "h11-prose-friulian-passphrase", "h11-prose-tetum-whatsapp",
    "h11-prose-hiligaynon-passphrase", "h11-prose-wolof-voice-transcript", "h11-prose-sesotho-api-key",
    "h11-prose-nahuatl-note", "h11-prose-tibetan-note", "h11-prose-papiamento-env-split",
  ],};

/**
 * What main still missed of sets 11 and 12 when the thirteenth pass began (8556b9b; the MISSED
 * lists of held-out-doors-11.test.ts and held-out-doors-12.test.ts then): the items that pass's
 * general classes (made-values.ts) were measured on without their texts being read
 * (leave-out-13.test.ts; docs/privacy.md "Thirteenth pass: general rules").
 */
export const MAIN_MISSES_AT_13: Readonly<Record<11 | 12, readonly string[]>> = {
  11: [
    "h11-enc-powershell-encodedcommand", "h11-enc-base32-backup-key", "h11-enc-storj-access-grant", "h11-enc-wasm-env-utf8-array",
    "h11-enc-mariadb-keyfile-hex", "h11-asm-lua-string-char", "h11-asm-cobol-string", "h11-asm-c-adjacent-literals",
    "h11-asm-perl-qw-join", "h11-asm-shell-paste-join", "h11-asm-hcl-join", "h11-asm-vba-chr", "h11-asm-tcl-append",
    "h11-art-pdf-extracted-onboarding", "h11-art-ics-description", "h11-art-vcard-x-field", "h11-art-teams-html-export",
    "h11-art-tfstate-attributes", "h11-art-cronitor-k8s-cronjob", "h11-art-healthchecks-ping-url-systemd",
    "h11-prose-friulian-passphrase", "h11-prose-hiligaynon-passphrase", "h11-prose-wolof-voice-transcript", "h11-prose-sesotho-api-key",
  ],
  12: [
    "h12-argv-xdotool-type", "h12-argv-qrencode-terminal", "h12-path-apprise-gotify-url", "h12-path-apprise-join-url",
    "h12-path-uptime-kuma-push", "h12-path-pipedream-subdomain", "h12-col-exim-passwd-client", "h12-col-wg-show-dump",
    "h12-line2-mosquitto-sub-v", "h12-line2-svn-simple-auth", "h12-line2-bthport-registry-link-key", "h12-line2-second-line-of-dotfile",
    "h12-spoken-numbers-as-digits-wifi", "h12-spoken-otp-seed-chunks", "h12-spoken-sms-recovery-readout",
    "h12-spoken-phonetic-mixed-digits-words", "h12-prose-kashmiri-perso-arabic", "h12-prose-cherokee-mixed",
  ],
};
