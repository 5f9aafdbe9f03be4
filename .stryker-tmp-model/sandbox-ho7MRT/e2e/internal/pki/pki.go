// Package pki writes the certificates and keys of the local control plane: one CA, the API server's
// serving certificate, the process node's serving certificate (the API server proxies pods/exec to it)
// and the service-account signing key pair. Everything is made once per run folder and reused.
package pki

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// Files names the files Ensure writes in its folder.
type Files struct {
	Dir, CACert, CAKey, ServingCert, ServingKey, NodeCert, NodeKey, SAKey, SAPub string
}

// Layout gives the file names under dir.
func Layout(dir string) Files {
	p := func(n string) string { return filepath.Join(dir, n) }
	return Files{
		Dir: dir, CACert: p("ca.crt"), CAKey: p("ca.key"),
		ServingCert: p("apiserver.crt"), ServingKey: p("apiserver.key"),
		NodeCert: p("node.crt"), NodeKey: p("node.key"),
		SAKey: p("sa.key"), SAPub: p("sa.pub"),
	}
}

// Ensure writes every file that is missing. The serving certificate names every address a client of
// this machine uses for the API server: loopback, and the in-cluster names a pod may be given.
func Ensure(dir string) (Files, error) {
	f := Layout(dir)
	if _, err := os.Stat(f.SAPub); err == nil {
		return f, nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return f, err
	}
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return f, err
	}
	caTmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "e2e-ca"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().AddDate(10, 0, 0),
		KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature, BasicConstraintsValid: true, IsCA: true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTmpl, caTmpl, &caKey.PublicKey, caKey)
	if err != nil {
		return f, err
	}
	ca, _ := x509.ParseCertificate(caDER)
	if err := writeCert(f.CACert, caDER); err != nil {
		return f, err
	}
	if err := writeECKey(f.CAKey, caKey); err != nil {
		return f, err
	}
	names := []string{"localhost", "kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"}
	ips := []net.IP{net.ParseIP("127.0.0.1"), net.ParseIP("10.0.0.1")}
	if err := issue(f.ServingCert, f.ServingKey, "kube-apiserver", names, ips, ca, caKey, 2); err != nil {
		return f, err
	}
	if err := issue(f.NodeCert, f.NodeKey, "process-node", []string{"localhost"}, ips[:1], ca, caKey, 3); err != nil {
		return f, err
	}
	saKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return f, err
	}
	pub, err := x509.MarshalPKIXPublicKey(&saKey.PublicKey)
	if err != nil {
		return f, err
	}
	if err := os.WriteFile(f.SAKey, pem.EncodeToMemory(&pem.Block{Type: "RSA PRIVATE KEY", Bytes: x509.MarshalPKCS1PrivateKey(saKey)}), 0o600); err != nil {
		return f, err
	}
	// Written last: its presence says the folder is complete.
	return f, os.WriteFile(f.SAPub, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pub}), 0o644)
}

func issue(certPath, keyPath, cn string, dns []string, ips []net.IP, ca *x509.Certificate, caKey *ecdsa.PrivateKey, serial int64) error {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(serial), Subject: pkix.Name{CommonName: cn},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().AddDate(10, 0, 0),
		KeyUsage:    x509.KeyUsageDigitalSignature | x509.KeyUsageKeyEncipherment,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth, x509.ExtKeyUsageClientAuth},
		DNSNames:    dns, IPAddresses: ips,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca, &key.PublicKey, caKey)
	if err != nil {
		return fmt.Errorf("issue %s: %w", cn, err)
	}
	if err := writeCert(certPath, der); err != nil {
		return err
	}
	return writeECKey(keyPath, key)
}

func writeCert(path string, der []byte) error {
	return os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o644)
}

func writeECKey(path string, key *ecdsa.PrivateKey) error {
	b, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	return os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: b}), 0o600)
}
