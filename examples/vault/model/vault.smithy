$version: "2"

metadata suppressions = [
    {
        id: "UnstableTrait"
        namespace: "acme.vault"
        reason: "The CloudFormation traits are what this model is for."
    }
]

namespace acme.vault

use aws.api#arn
use aws.api#service
use aws.api#tagEnabled
use aws.api#taggable
use aws.cloudformation#cfnAdditionalIdentifier
use aws.cloudformation#cfnDefaultValue
use aws.cloudformation#cfnExcludeProperty
use aws.cloudformation#cfnMutability
use aws.cloudformation#cfnName
use aws.cloudformation#cfnResource
use aws.iam#iamAction

/// Acme Vault stores secrets in encrypted vaults, each with its own access policy.
@service(sdkId: "Vault", cloudFormationName: "Vault", arnNamespace: "vault")
@tagEnabled
service VaultService {
    version: "2026-11-01"
    resources: [Vault]
    operations: [TagResource, UntagResource, ListTagsForResource]
}

/// Resource Type definition for Acme::Vault::Vault, an encrypted container for secrets.
@externalDocumentation(
    "API Reference": "https://docs.example.com/vault/api"
    "Source Code": "https://github.com/acme/vault-resource-providers"
)
@cfnResource(name: "Vault", additionalSchemas: [VaultStatistics])
@taggable(property: "Tags")
@arn(template: "vault/{vaultId}")
resource Vault {
    identifiers: { vaultId: VaultId }
    properties: {
        vaultName: VaultName
        vaultArn: VaultArn
        description: String
        encryption: EncryptionSettings
        retentionDays: RetentionDays
        storageClass: StorageClass
        tier: String
        kmsKeyId: String
        status: VaultStatus
        createdAt: Timestamp
        adminPassword: String
        secretCount: SecretCount
        Tags: TagList
        labels: LabelMap
    }
    create: CreateVault
    read: GetVault
    update: UpdateVault
    delete: DeleteVault
    list: ListVaults
}

/// The ID the service gives a vault.
@pattern("^v-[0-9a-f]{16}$")
string VaultId

/// The name of a vault, unique in an account and region.
@length(min: 3, max: 63)
@pattern("^[a-z0-9-]+$")
string VaultName

@pattern("^arn:aws[a-z-]*:vault:[a-z0-9-]+:[0-9]{12}:vault/.+$")
string VaultArn

@range(min: 1, max: 3650)
integer RetentionDays

enum StorageClass {
    STANDARD
    INFREQUENT_ACCESS = "INFREQUENT"
}

enum VaultStatus {
    CREATING
    ACTIVE
    DELETING
}

/// How the vault encrypts its secrets.
structure EncryptionSettings {
    /// The algorithm used to encrypt secrets.
    @required
    algorithm: String

    /// Rotate the data key every this many days.
    rotationDays: Integer
}

map LabelMap {
    key: String
    value: String
}

list TagList {
    member: Tag
}

structure Tag {
    @required
    Key: String

    @required
    Value: String
}

/// Usage figures that the service reports (GetVault returns them).
structure VaultStatistics {
    secretCount: SecretCount
}

/// How many secrets the vault holds, as the service reports it.
long SecretCount

@idempotent
@iamAction(name: "CreateVault", requiredActions: ["kms:CreateGrant", "iam:PassRole"])
@examples([
    {
        title: "Create a vault for a team's secrets"
        input: {
            vaultName: "team-secrets"
            description: "Secrets of the platform team"
            encryption: { algorithm: "AES256", rotationDays: 90 }
            retentionDays: 30
            storageClass: "STANDARD"
            Tags: [{ Key: "team", Value: "platform" }]
            labels: { env: "prod" }
        }
        output: {
            vaultId: "v-0123456789abcdef"
            vaultArn: "arn:aws:vault:us-east-1:123456789012:vault/v-0123456789abcdef"
        }
    }
])
operation CreateVault {
    input := for Vault {
        @required
        $vaultName

        $description

        @required
        $encryption

        @cfnDefaultValue
        $retentionDays

        $storageClass

        @deprecated(message: "Use storageClass instead.", since: "2026-11-01")
        $tier

        @cfnMutability("create-and-read")
        $kmsKeyId

        /// Never returned by the service.
        @cfnMutability("write")
        $adminPassword

        $Tags

        $labels

        /// A token that makes the request idempotent.
        @idempotencyToken
        @cfnExcludeProperty
        clientToken: String
    }
    output := for Vault {
        @required
        $vaultId

        @required
        $vaultArn
    }
    errors: [VaultAlreadyExists]
}

@readonly
@iamAction(requiredActions: ["kms:Decrypt"])
operation GetVault {
    input := for Vault {
        @required
        $vaultId

        /// The vault's ARN can be used instead of its ID.
        @cfnAdditionalIdentifier
        $vaultArn
    }
    output := for Vault {
        @required
        $vaultId

        @required
        $vaultName

        @required
        $vaultArn

        $description

        $encryption

        $retentionDays

        $storageClass

        $tier

        $kmsKeyId

        $status

        @cfnName("CreationTime")
        $createdAt

        $secretCount

        $Tags

        $labels
    }
    errors: [VaultNotFound]
}

@idempotent
@examples([
    {
        title: "Keep the secrets longer, in the cheaper storage class"
        input: {
            vaultId: "v-0123456789abcdef"
            description: "Secrets of the platform team, kept for a year"
            retentionDays: 365
            storageClass: "INFREQUENT"
            labels: { env: "prod", tier: "archive" }
        }
    }
])
operation UpdateVault {
    input := for Vault {
        @required
        $vaultId

        $description

        $retentionDays

        $storageClass

        $labels
    }
    output := {}
    errors: [VaultNotFound]
}

@idempotent
operation DeleteVault {
    input := for Vault {
        @required
        $vaultId
    }
    output := {}
    errors: [VaultNotFound]
}

@readonly
@paginated(inputToken: "nextToken", outputToken: "nextToken", items: "vaults")
operation ListVaults {
    input := {
        nextToken: String
    }
    output := {
        @required
        vaults: VaultIdList

        nextToken: String
    }
}

list VaultIdList {
    member: VaultId
}

operation TagResource {
    input := {
        @required
        resourceArn: VaultArn

        @required
        tags: TagList
    }
    output := {}
}

operation UntagResource {
    input := {
        @required
        resourceArn: VaultArn

        @required
        tagKeys: TagKeyList
    }
    output := {}
}

@readonly
operation ListTagsForResource {
    input := {
        @required
        resourceArn: VaultArn
    }
    output := {
        tags: TagList
    }
}

list TagKeyList {
    member: String
}

@error("client")
structure VaultNotFound {
    message: String
}

@error("client")
structure VaultAlreadyExists {
    message: String
}
