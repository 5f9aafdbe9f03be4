package fakegithub

import (
	"crypto"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"strings"
	"time"
)

// Installation is one GitHub App installed for one namespace (slot) of the harness: the App's id and key,
// and the installation id the direct step exchanges a JWT for a token at.
type Installation struct {
	Namespace string
	App       string
	AppID     string
	ID        string
	key       *rsa.PrivateKey
}

// Credentials are the keys of the App's Secret (github-app-{app}), as docs/executors.md names them.
func (in *Installation) Credentials() map[string]string {
	der := x509.MarshalPKCS1PrivateKey(in.key)
	return map[string]string{
		"app-id":          in.AppID,
		"installation-id": in.ID,
		"private-key":     string(pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: der})),
	}
}

// maxJWTLifetime is GitHub's cap on a JWT's exp - iat (ten minutes), with a minute for clock drift as
// GitHub's own docs advise backdating iat ("Generating a JSON Web Token (JWT) for a GitHub App").
const maxJWTLifetime = 11 * time.Minute

// jwtClaims are the claims an App's JWT carries.
type jwtClaims struct {
	IAT int64  `json:"iat"`
	EXP int64  `json:"exp"`
	ISS string `json:"iss"`
}

// verifyJWT checks an App's JWT as GitHub does: RS256 signed with the App's key, iss the App id, issued
// before now, not expired, and not living longer than GitHub allows.
func verifyJWT(token string, pub *rsa.PublicKey, appID string, now time.Time) error {
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return fmt.Errorf("a JWT has three parts, this one %d", len(parts))
	}
	var header struct {
		Alg string `json:"alg"`
	}
	if err := decodeSegment(parts[0], &header); err != nil {
		return fmt.Errorf("header: %w", err)
	}
	if header.Alg != "RS256" {
		return fmt.Errorf("alg %q: GitHub takes RS256 only", header.Alg)
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil {
		return fmt.Errorf("signature: %w", err)
	}
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if err := rsa.VerifyPKCS1v15(pub, crypto.SHA256, sum[:], sig); err != nil {
		return fmt.Errorf("signature does not verify with the App's key")
	}
	var c jwtClaims
	if err := decodeSegment(parts[1], &c); err != nil {
		return fmt.Errorf("claims: %w", err)
	}
	switch {
	case c.ISS != appID:
		return fmt.Errorf("iss %q is not the App's id %q", c.ISS, appID)
	case c.IAT > now.Unix()+60:
		return fmt.Errorf("iat is in the future")
	case c.EXP <= now.Unix():
		return fmt.Errorf("expired")
	case time.Duration(c.EXP-c.IAT)*time.Second > maxJWTLifetime:
		return fmt.Errorf("exp is %d s after iat: more than GitHub's ten minutes", c.EXP-c.IAT)
	}
	return nil
}

func decodeSegment(seg string, v any) error {
	b, err := base64.RawURLEncoding.DecodeString(seg)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

// newToken makes an installation token in GitHub's format (ghs_ and 36 characters).
func newToken() string {
	b := make([]byte, 18)
	_, _ = rand.Read(b)
	return "ghs_" + hex.EncodeToString(b)
}
